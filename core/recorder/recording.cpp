// SPDX-License-Identifier: MIT
#include "core/recorder/recording.h"

#include "core/recorder/lackeyrecorder.h"
#include "core/recorder/toolrecorder.h"

namespace memhist {

bool recordProgram(HistoryWriter &writer, const RecordOptions &options, RecordReport *report, QString *error,
    const RecordProgressCallback &progress)
{
    switch (options.backend) {
    case RecordBackend::Tool:
        return ToolRecorder().record(writer, options, report, error, progress);
    case RecordBackend::Lackey:
        return LackeyRecorder().record(writer, options, report, error, progress);
    }
    return false;
}

} // namespace memhist
