// SPDX-License-Identifier: MIT
#include "core/importers/importsession.h"

#include "core/importers/accesssink.h"

#include <QFileInfo>
#include <algorithm>
#include <memory>

namespace memhist {

bool recogniseTraces(
    const QStringList &paths, std::optional<TraceFormat> requested, QList<TraceInput> *inputs, QString *error)
{
    inputs->clear();
    for (const QString &path : paths) {
        TraceFormat format;
        if (requested) {
            format = *requested;
            if (!QFileInfo::exists(path)) {
                *error = path + QStringLiteral(": cannot open: No such file or directory");
                return false;
            }
        } else if (!detectTraceFormat(path, &format, error)) {
            return false;
        }
        if (!createImporter(format)) {
            *error = QStringLiteral("%1: the %2 format has no importer yet").arg(path, traceFormatName(format));
            return false;
        }
        inputs->append({ path, format });
    }
    return true;
}

bool importTraces(const QList<TraceInput> &inputs, const QString &outputPath, ImportOptions options,
    const ImportSessionProgressCallback &progress, ImportSummary *summary, QString *error)
{
    *summary = {};
    HistoryWriter writer(outputPath);
    if (!writer.open()) {
        *error = writer.errorString();
        return false;
    }
    QList<SourceDescription> sources;
    for (const TraceInput &input : inputs)
        sources.append({ traceFormatName(input.format), QFileInfo(input.path).absoluteFilePath() });
    writer.setSources(sources);
    for (const Mapping &mapping : std::as_const(options.initialMap))
        writer.addMapping(options.firstTransition, mapping);
    const TransitionWindow window = TransitionWindow::of(options);
    if (options.skipInstructions > 0 || options.maxInstructions) {
        writer.setMetaValue(QStringLiteral("import window"),
            !window.bounded()               ? QStringLiteral("transitions %1..").arg(window.begin)
                : window.end > window.begin ? QStringLiteral("transitions %1..%2").arg(window.begin).arg(window.end - 1)
                                            : QStringLiteral("empty"));
    }

    // Every importer writes into the history through the same sink.
    WriterSink sink(writer);
    for (qsizetype i = 0; i < inputs.size(); ++i) {
        const TraceInput &input = inputs[i];
        // The traces after the window's end hold nothing of it.
        if (window.bounded() && options.firstTransition.value >= window.end)
            break;
        // This trace's part of the window, counted from its first instruction.
        const std::uint64_t first = options.firstTransition.value;
        options.skipInstructions = window.begin > first ? window.begin - first : 0;
        if (window.bounded())
            options.maxInstructions = window.end - std::max(window.begin, first);
        const std::unique_ptr<TraceImporter> importer = createImporter(input.format);
        if (!importer) {
            writer.cancel();
            *error = QStringLiteral("%1: the %2 format has no importer yet")
                         .arg(input.path, traceFormatName(input.format));
            return false;
        }
        ImportReport report;
        const auto onProgress = [&](double fraction) {
            if (!progress)
                return true;
            return progress({ i, inputs.size(), input.path, fraction, writer.stats().accesses });
        };
        const bool ok = importer->run(input.path, sink, options, &report, error, onProgress);
        summary->warnings += report.warnings;
        if (!ok) {
            writer.cancel();
            summary->stats = writer.stats();
            return false;
        }
        for (auto it = report.skipped.cbegin(); it != report.skipped.cend(); ++it)
            summary->skipped[it.key()] += it.value();
        summary->context += report.context;
        // The next trace continues after this one, also when a format carries its own transitions
        // (csv): transitions must never decrease across the whole history.
        const WriterStats &stats = writer.stats();
        Transition next = report.nextTransition;
        if (stats.lastTransition && stats.lastTransition->value + 1 > next.value)
            next = Transition { stats.lastTransition->value + 1 };
        options.firstTransition = next;
        if (report.reachedWindowEnd)
            break;
    }
    // A window that starts past the traces' end leaves an empty history, most often from a typo.
    if (window.begin > 0 && options.firstTransition.value <= window.begin && writer.stats().accesses == 0) {
        summary->warnings << (options.firstTransition.value == 0
                ? QStringLiteral("the window starts at transition %1, but the traces hold no transitions: the history "
                                 "is empty")
                      .arg(window.begin)
                : QStringLiteral("the window starts at transition %1, after the traces' last transition (%2): the "
                                 "history is empty")
                      .arg(window.begin)
                      .arg(options.firstTransition.value - 1));
    }
    for (auto it = summary->skipped.cbegin(); it != summary->skipped.cend(); ++it)
        writer.setMetaValue(QStringLiteral("skipped: ") + it.key(), QString::number(it.value()));
    // The progress callback keeps being asked while the writer finishes, so that a Cancel there
    // still leaves nothing behind.
    const QString cancelled = outputPath + QStringLiteral(": import cancelled");
    if (progress) {
        const ImportSessionProgress finishing { std::max<qsizetype>(0, inputs.size() - 1), inputs.size(),
            inputs.isEmpty() ? QString() : inputs.constLast().path, 1.0, writer.stats().accesses, true };
        if (!progress(finishing)) {
            writer.cancel();
            summary->stats = writer.stats();
            *error = cancelled;
            return false;
        }
        writer.setInterruptCheck([&progress, finishing] { return !progress(finishing); });
    }
    const bool finished = writer.finish();
    summary->stats = writer.stats();
    if (!finished) {
        *error = writer.interrupted() ? cancelled : writer.errorString();
        return false;
    }
    return true;
}

} // namespace memhist
