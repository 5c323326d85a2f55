// SPDX-License-Identifier: MIT
#include "comparejob.h"

#include "core/diff/diffprogram.h"
#include "core/diff/learnbaseline.h"
#include "core/diff/rundiff.h"
#include "core/storage/historydatabase.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace memhist::viewer {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("memhist::viewer::CompareJob", text);
}

} // namespace

CompareOutcome compareHistories(const QString &a, const QString &b, const QString &baseline, std::size_t limit,
    const std::function<bool(Transition reached)> &progress)
{
    CompareOutcome outcome;
    const QFileInfo aFile(a), bFile(b);
    if (bFile.exists() && aFile.canonicalFilePath() == bFile.canonicalFilePath()) {
        outcome.error = tr("%1 is the history open already: compare it with another run of the same program")
                            .arg(bFile.absoluteFilePath());
        return outcome;
    }
    const auto first = HistoryDatabase::open(a, &outcome.error);
    if (!first)
        return outcome;
    const auto second = HistoryDatabase::open(b, &outcome.error);
    if (!second)
        return outcome;
    // As `memhist diff` says it.
    if (const auto mismatch
        = programMismatch(first->path(), recordedProgram(*first), second->path(), recordedProgram(*second))) {
        outcome.error = *mismatch;
        return outcome;
    }
    DiffOptions options;
    options.limit = limit;
    options.progress = progress;
    // Every 4,096 instructions: a Cancel stops within a millisecond or so, at the cost of an
    // atomic load and a progress report each time.
    options.progressInterval = 4096;
    // A comparison of A with `other` that failed: cancelled, or a history that cannot be read.
    const auto failed = [&outcome, &first](const HistoryDatabase &other, const QString &error) {
        outcome.cancelled = error == diffCancelledError;
        outcome.error = outcome.cancelled ? tr("The comparison was cancelled")
                                          : QStringLiteral("%1 / %2: %3").arg(first->path(), other.path(), error);
        return outcome;
    };
    QString error;
    DiffNoise noise;
    if (!baseline.isEmpty()) {
        const auto learned = HistoryDatabase::open(baseline, &outcome.error);
        if (!learned)
            return outcome;
        if (const auto mismatch
            = programMismatch(first->path(), recordedProgram(*first), learned->path(), recordedProgram(*learned))) {
            outcome.error = tr("Baseline: %1").arg(*mismatch);
            return outcome;
        }
        // Each pass walks A once: the first counts for the first half of the progress, the second
        // for the rest (A's last transition is where the first pass ends).
        const Transition aLast = first->summary().lastTransition.value_or(Transition { 0 });
        DiffOptions learning = options;
        learning.progress = [&progress](Transition reached) { return progress(Transition { reached.value / 2 }); };
        if (!learnBaseline(*first, *learned, learning, &noise, &error))
            return failed(*learned, error);
        options.ignore = &noise;
        options.progress = [&progress, aLast](Transition reached) {
            return progress(Transition { aLast.value / 2 + reached.value / 2 });
        };
    }
    if (!diffRuns(*first, *second, options, &outcome.result, &error))
        return failed(*second, error);
    outcome.ok = true;
    return outcome;
}

} // namespace memhist::viewer
