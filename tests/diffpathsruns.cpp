// SPDX-License-Identifier: MIT
#include "diffpathsruns.h"

#include "testsupport.h"
#include "toolchain.h"

#include <QDir>
#include <QFile>

namespace memhist::test {

bool DiffPathsRuns::build(const QString &folder, const QString &source, QString *why)
{
    m_folder = folder;
    m_source = path(QStringLiteral("diffpaths.c"));
    if (!QFile::exists(m_source) && !QFile::copy(source, m_source)) {
        *why = QStringLiteral("%1: cannot be copied to %2").arg(source, m_source);
        return false;
    }
    for (const auto &[optimisation, program] : { std::pair { "-O0", "diffpaths" }, { "-O1", "diffpaths-o1" } }) {
        if (!runStep(QStringLiteral("gcc"), { "-g", optimisation, "-o", program, "diffpaths.c" }, m_folder)) {
            *why = QStringLiteral("gcc %1 diffpaths.c failed").arg(QLatin1String(optimisation));
            return false;
        }
    }
    return true;
}

bool DiffPathsRuns::record(const QString &program, const QString &input, const QString &history, QString *why) const
{
    const CliResult run = runCli(
        { QStringLiteral("record"), QStringLiteral("-o"), path(history), QStringLiteral("--"), path(program), input });
    if (run.exitCode != 0)
        *why = QStringLiteral("memhist record %1 %2: %3").arg(program, input, QString::fromLocal8Bit(run.err));
    return run.exitCode == 0;
}

QString DiffPathsRuns::path(const QString &name) const
{
    return QDir(m_folder).filePath(name);
}

QByteArray DiffPathsRuns::sourceAt(const QString &mark) const
{
    const QList<QByteArray> lines = readFile(m_source).split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i)
        if (lines[i].endsWith(QByteArray("// mark:" + mark.toLatin1())))
            return m_source.toUtf8() + ':' + QByteArray::number(i + 1);
    qFatal("no mark %s", qPrintable(mark));
}

} // namespace memhist::test
