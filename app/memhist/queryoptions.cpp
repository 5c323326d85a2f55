// SPDX-License-Identifier: MIT
#include "queryoptions.h"

#include "core/model/numbertext.h"
#include "core/storage/threadspans.h"

#include <QRegularExpression>
#include <limits>

namespace memhist::cli {

namespace {

const QString at = QStringLiteral("at");
const QString backward = QStringLiteral("backward");
const QString from = QStringLiteral("from");
const QString to = QStringLiteral("to");
const QString ops = QStringLiteral("ops");
const QString limit = QStringLiteral("limit");
const QString resume = QStringLiteral("resume");
const QString thread = QStringLiteral("thread");

} // namespace

void addQueryOptions(QCommandLineParser &parser, LimitDefault limitDefault)
{
    parser.addOptions({
        { at, QStringLiteral("Start at transition T (default: 0 forward, the last transition backward)."),
            QStringLiteral("T") },
        { backward, QStringLiteral("Go back in time from T (newest first).") },
        { from, QStringLiteral("First byte address of the range (default 0)."), QStringLiteral("A") },
        { to, QStringLiteral("Last byte address of the range, inclusive (default 0xffffffffffffffff)."),
            QStringLiteral("B") },
        { ops, QStringLiteral("Operations to return: any of the letters r, w, x (default rw)."),
            QStringLiteral("r|w|x|rw|rwx") },
        { limit,
            limitDefault == LimitDefault::FirstHundred
                ? QStringLiteral("Return at most N accesses (default 100).")
                : QStringLiteral("Write at most N accesses (default: every match)."),
            QStringLiteral("N") },
        { resume, QStringLiteral("Continue after row R in the query's direction (with --at too, both hold)."),
            QStringLiteral("ROWID") },
        { thread,
            QStringLiteral(
                "Only the accesses of transitions thread N ran (repeat for several threads; the history must "
                "record threads, as drmemtrace imports do)."),
            QStringLiteral("N") },
    });
}

bool anyQueryOptionSet(const QCommandLineParser &parser)
{
    for (const QString *name : { &at, &backward, &from, &to, &ops, &limit, &resume, &thread }) {
        if (parser.isSet(*name))
            return true;
    }
    return false;
}

bool checkQueryThreads(HistoryDatabase &database, const HalfAxisQuery &query, QString *error)
{
    if (query.threads.isEmpty())
        return true;
    const ThreadSpans spans(database);
    const QList<ThreadSummary> threads = spans.threads();
    if (!spans.available() || threads.isEmpty()) {
        *error = QStringLiteral("this history records no threads");
        return false;
    }
    QList<qint64> known;
    for (const ThreadSummary &summary : threads)
        known.append(summary.threadId);
    for (const qint64 thread : query.threads) {
        if (known.contains(thread))
            continue;
        // A few ids are enough to see the mistake; a history may have hundreds of threads.
        constexpr qsizetype shown = 8;
        QStringList names;
        for (qsizetype i = 0; i < std::min(shown, known.size()); ++i)
            names.append(QString::number(known[i]));
        if (known.size() > shown)
            names.append(QStringLiteral("and %1 more").arg(known.size() - shown));
        *error = QStringLiteral("no thread %1 in this history (its threads: %2)")
                     .arg(thread)
                     .arg(names.join(QStringLiteral(", ")));
        return false;
    }
    return true;
}

bool parseNumberOption(const QString &option, const QString &text, std::uint64_t *value, QString *error)
{
    const NumberStatus status = parseNumber(text.toLatin1(), value);
    if (status == NumberStatus::Ok)
        return true;
    // A number as the viewer shows it, digits grouped ("34,563", "0x4a1'b140"): the message says
    // what to type. It is not taken as it is, so that a list ("--thread 10506,10510") is never
    // silently read as one large number.
    static const QRegularExpression viewerGroups(
        QStringLiteral("^(\\d{1,3}(,\\d{3})+|0[xX][0-9a-fA-F]{1,4}('[0-9a-fA-F]{4})+)$"));
    if (status == NumberStatus::TooLarge) {
        *error = QStringLiteral("--%1: '%2' is out of range (more than 64 bits)").arg(option, text);
    } else if (viewerGroups.match(text).hasMatch()) {
        *error = QStringLiteral("--%1: '%2' is not a number (decimal or 0x hex): write it without separators, %3")
                     .arg(option, text, QString(text).remove(u',').remove(u'\''));
    } else {
        *error = QStringLiteral("--%1: '%2' is not a number (decimal or 0x hex)").arg(option, text);
    }
    return false;
}

bool parseOperations(const QString &text, Operations *operations)
{
    Operations result;
    for (const QChar c : text) {
        switch (c.toLower().unicode()) {
        case u'r':
            result |= Operation::Read;
            break;
        case u'w':
            result |= Operation::Write;
            break;
        case u'x':
            result |= Operation::Execute;
            break;
        default:
            return false;
        }
    }
    if (!result)
        return false;
    *operations = result;
    return true;
}

bool readQueryOptions(const QCommandLineParser &parser, HalfAxisQuery *query, QString *error)
{
    HalfAxisQuery result;
    std::uint64_t number = 0;

    if (parser.isSet(at)) {
        if (!parseNumberOption(at, parser.value(at), &number, error))
            return false;
        if (number > std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
            *error = QStringLiteral("--at: '%1' is out of range (transitions end at 2^63-1)").arg(parser.value(at));
            return false;
        }
        result.at = Transition { number };
    }
    if (parser.isSet(resume)) {
        if (!parseNumberOption(resume, parser.value(resume), &number, error))
            return false;
        if (number > std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
            *error = QStringLiteral("--resume: '%1' is out of range (row ids end at 2^63-1)").arg(parser.value(resume));
            return false;
        }
        result.resumeAfter = RowId { std::int64_t(number) };
    }
    result.direction = parser.isSet(backward) ? Direction::Backward : Direction::Forward;
    if (parser.isSet(from)) {
        if (!parseNumberOption(from, parser.value(from), &number, error))
            return false;
        result.first = Address { number };
    }
    if (parser.isSet(to)) {
        if (!parseNumberOption(to, parser.value(to), &number, error))
            return false;
        result.last = Address { number };
    }
    if (result.first > result.last) {
        *error = QStringLiteral("--from %1 is greater than --to %2").arg(parser.value(from), parser.value(to));
        return false;
    }
    if (parser.isSet(ops) && !parseOperations(parser.value(ops), &result.operations)) {
        *error = QStringLiteral("--ops: '%1' is not a set of operations (letters r, w, x, e.g. rw)")
                     .arg(parser.value(ops));
        return false;
    }
    if (parser.isSet(limit)) {
        if (!parseNumberOption(limit, parser.value(limit), &number, error))
            return false;
        result.limit = number;
    }
    for (const QString &text : parser.values(thread)) {
        if (!parseNumberOption(thread, text, &number, error))
            return false;
        if (number > std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
            *error = QStringLiteral("--thread: '%1' is out of range (thread ids end at 2^63-1)").arg(text);
            return false;
        }
        if (!result.threads.contains(qint64(number)))
            result.threads.append(qint64(number));
    }
    *query = result;
    return true;
}

} // namespace memhist::cli
