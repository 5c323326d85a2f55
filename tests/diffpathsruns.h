// SPDX-License-Identifier: MIT
// The runs `memhist diff` and the viewer's Compare With… are tested on: data/diff/diffpaths.c, a
// program of known behaviour, built with the system's gcc (-O0, and -O1 as another program) and
// recorded under `memhist record` with the inputs that take its two branches. Shared by
// tst_diff and tst_compare so that both compare the same runs.
#pragma once

#include <QByteArray>
#include <QString>

namespace memhist::test {

class DiffPathsRuns
{
public:
    // Copies `source` (the test's QFINDTESTDATA("…/data/diff/diffpaths.c")) into `folder` and
    // builds diffpaths (-g -O0) and diffpaths-o1 (-g -O1: another program, another build-id).
    // False, with *why, when gcc fails.
    bool build(const QString &folder, const QString &source, QString *why);
    // Records `program` ("diffpaths" or "diffpaths-o1") run with `input` ("a" or "b") into the
    // folder's `history`. False, with *why (the recorder's error output), when it fails.
    bool record(const QString &program, const QString &input, const QString &history, QString *why) const;

    QString path(const QString &name) const;
    // "…/diffpaths.c:LINE" of the line marked "// mark:NAME" in the copied source, as the diff
    // names it. Aborts the test when there is no such mark.
    QByteArray sourceAt(const QString &mark) const;

private:
    QString m_folder;
    QString m_source;
};

} // namespace memhist::test
