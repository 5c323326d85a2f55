// SPDX-License-Identifier: MIT
#include "querybatch.h"

#include "boundedfile.h"
#include "commandline.h"
#include "queryoptions.h"

#include <QCommandLineParser>
#include <QFile>
#include <QRegularExpression>

namespace memhist::cli {

bool readBatchFile(const QString &path, QList<BatchQuery> *queries, QString *error, int *exitStatus)
{
    QStringList lines;
    if (!readBoundedLines(path, maxBatchLines, maxBatchLineBytes, &lines, error)) {
        *exitStatus = ExitFailure;
        return false;
    }
    static const QRegularExpression whitespace(QStringLiteral("\\s+"));

    QList<BatchQuery> result;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty() || line.startsWith(u'#'))
            continue;
        const auto fail = [&](const QString &reason) {
            *error = path + u':' + QString::number(i + 1) + QStringLiteral(": ") + reason;
            *exitStatus = ExitUsage;
            return false;
        };

        QCommandLineParser parser;
        addQueryOptions(parser);
        // The parser skips the first element, where it expects the program name.
        if (!parser.parse(QStringList { QStringLiteral("batch") } + line.split(whitespace, Qt::SkipEmptyParts)))
            return fail(parserMessage(parser.errorText()));
        if (!parser.positionalArguments().isEmpty())
            return fail(QStringLiteral("unexpected argument '%1' (a line holds query options only)")
                            .arg(parser.positionalArguments().constFirst()));
        BatchQuery query;
        query.line = int(i + 1);
        QString reason;
        if (!readQueryOptions(parser, &query.query, &reason))
            return fail(reason);
        result.append(query);
    }
    *queries = result;
    return true;
}

} // namespace memhist::cli
