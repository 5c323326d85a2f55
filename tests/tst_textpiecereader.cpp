// SPDX-License-Identifier: MIT
// The read loop of the text traces (core/importers/textpiecereader.h), which the Lackey and Tenet
// importers and `memhist record` share: lines cut across pieces reach the parser whole, each way the
// loop ends (input end, parser done, stop, cancellation, failure) with its rest, and the bytes the
// recorder keeps are exactly those parsed.
#include "core/importers/progressthrottle.h"
#include "core/importers/textpiecereader.h"
#include "core/importers/tracefilereader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cstring>

using namespace memhist;

Q_DECLARE_METATYPE(memhist::TextPieceEnd)

namespace {

// What one run of the loop did.
struct Run
{
    TextPieceEnd end = TextPieceEnd::Failed;
    QByteArrayList lines; // what the parser was handed, line by line
    QByteArray parsed; // what TextPieceInput::parsed saw, concatenated
    QByteArray rest; // *rest when the end sets it
    QString error;
    int reads = 0;
};

// How the input misbehaves, by the row's name.
struct Behaviour
{
    qsizetype pieceSize = 0; // the most one read() returns; 0: as much as fits
    int stopAtRead = -1; // read() number n (from 0) returns TextPieceInput::stop
    int failAtRead = -1; // read() number n fails
    int cancelAfterPiece = -1; // proceed() is false after piece n
    int doneAfterLines = -1; // the parser is done once it has this many lines
    bool parsedFails = false; // parsed() fails on the first non-empty piece
};

Run runLoop(const QByteArray &text, const Behaviour &behaviour)
{
    Run run;
    qsizetype position = 0;
    int pieces = 0;
    const TextPieceInput input {
        [&](char *data, qsizetype size) -> qint64 {
            const int read = run.reads++;
            if (read == behaviour.stopAtRead)
                return TextPieceInput::stop;
            if (read == behaviour.failAtRead) {
                run.error = QStringLiteral("read %1 failed").arg(read);
                return -1;
            }
            qsizetype n = std::min(size, text.size() - position);
            if (behaviour.pieceSize > 0)
                n = std::min(n, behaviour.pieceSize);
            std::memcpy(data, text.constData() + position, size_t(n));
            position += n;
            return n;
        },
        [&](QByteArrayView parsed) {
            if (behaviour.parsedFails && !parsed.isEmpty()) {
                run.error = QStringLiteral("cannot keep %1 bytes").arg(parsed.size());
                return false;
            }
            run.parsed += parsed.toByteArray();
            return true;
        },
        [&] { return pieces++ != behaviour.cancelAfterPiece; },
    };
    // Parses whole lines only, up to the last newline of what it is given (or up to where it is done).
    const TextPieceParser parser {
        [&](const char *data, qsizetype size) {
            qsizetype used = 0;
            const QByteArrayView view(data, size);
            while (run.lines.size() != behaviour.doneAfterLines) {
                const qsizetype newline = view.indexOf('\n', used);
                if (newline < 0)
                    break;
                run.lines << view.sliced(used, newline - used).toByteArray();
                used = newline + 1;
            }
            return used;
        },
        [&] { return qint64(run.lines.size()); },
        [&] { return run.lines.size() == behaviour.doneAfterLines; },
    };
    QByteArray buffer;
    QByteArrayView rest;
    run.end = readInPieces(input, 16, parser, &buffer, &rest);
    run.rest = rest.toByteArray();
    return run;
}

} // namespace

class TestTextPieceReader : public QObject
{
    Q_OBJECT

private slots:
    void ends_data();
    void ends();
    void fileErrors();
};

void TestTextPieceReader::ends_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<qsizetype>("pieceSize");
    QTest::addColumn<int>("stopAtRead");
    QTest::addColumn<int>("failAtRead");
    QTest::addColumn<int>("cancelAfterPiece");
    QTest::addColumn<int>("doneAfterLines");
    QTest::addColumn<bool>("parsedFails");
    QTest::addColumn<TextPieceEnd>("end");
    QTest::addColumn<QByteArrayList>("lines");
    QTest::addColumn<QByteArray>("parsed");
    QTest::addColumn<QByteArray>("rest");
    QTest::addColumn<QString>("error");
    QTest::addColumn<int>("reads");

    const QByteArray text = "one\ntwo\nthree\nfour";
    const QByteArrayList all { "one", "two", "three" };
    const QByteArray allParsed = "one\ntwo\nthree\n";
    // One read takes everything, the next says the input ended.
    QTest::newRow("one piece: the cut last line is the rest")
        << text << qsizetype(0) << -1 << -1 << -1 << -1 << false << TextPieceEnd::InputEnd << all << allParsed
        << QByteArray("four") << QString() << 2;
    // Lines cut across reads of 3 bytes reach the parser whole.
    QTest::newRow("pieces of 3 bytes: lines cut across pieces arrive whole")
        << text << qsizetype(3) << -1 << -1 << -1 << -1 << false << TextPieceEnd::InputEnd << all << allParsed
        << QByteArray("four") << QString() << 7;
    QTest::newRow("ends with a newline: no rest")
        << QByteArray("one\ntwo\n") << qsizetype(0) << -1 << -1 << -1 << -1 << false << TextPieceEnd::InputEnd
        << QByteArrayList { "one", "two" } << QByteArray("one\ntwo\n") << QByteArray() << QString() << 2;
    QTest::newRow("empty input: the end at once")
        << QByteArray() << qsizetype(0) << -1 << -1 << -1 << -1 << false << TextPieceEnd::InputEnd << QByteArrayList()
        << QByteArray() << QByteArray() << QString() << 1;
    // The recorder's stop request: reading stops before the next read, keeping what was parsed.
    QTest::newRow("stop at the second read")
        << text << qsizetype(5) << 1 << -1 << -1 << -1 << false << TextPieceEnd::Stopped << QByteArrayList { "one" }
        << QByteArray("one\n") << QByteArray() << QString() << 2;
    QTest::newRow("stop at the first read")
        << text << qsizetype(0) << 0 << -1 << -1 << -1 << false << TextPieceEnd::Stopped << QByteArrayList()
        << QByteArray() << QByteArray() << QString() << 1;
    // The importers' cancellation, asked after each piece.
    QTest::newRow("cancelled after the first piece")
        << text << qsizetype(9) << -1 << -1 << 0 << -1 << false << TextPieceEnd::Stopped
        << QByteArrayList { "one", "two" } << QByteArray("one\ntwo\n") << QByteArray() << QString() << 1;
    // The end of an import window or a recording's instruction limit: the rest is what is left.
    QTest::newRow("parser done after two lines")
        << text << qsizetype(0) << -1 << -1 << -1 << 2 << false << TextPieceEnd::ParserDone
        << QByteArrayList { "one", "two" } << QByteArray("one\ntwo\n") << QByteArray("three\nfour") << QString() << 1;
    QTest::newRow("read error after a piece")
        << text << qsizetype(5) << -1 << 1 << -1 << -1 << false << TextPieceEnd::Failed << QByteArrayList { "one" }
        << QByteArray("one\n") << QByteArray() << QStringLiteral("read 1 failed") << 2;
    QTest::newRow("the kept copy cannot be written")
        << text << qsizetype(0) << -1 << -1 << -1 << -1 << true << TextPieceEnd::Failed << all << QByteArray()
        << QByteArray() << QStringLiteral("cannot keep 14 bytes") << 1;
}

void TestTextPieceReader::ends()
{
    QFETCH(QByteArray, text);
    QFETCH(qsizetype, pieceSize);
    QFETCH(int, stopAtRead);
    QFETCH(int, failAtRead);
    QFETCH(int, cancelAfterPiece);
    QFETCH(int, doneAfterLines);
    QFETCH(bool, parsedFails);

    const Run run = runLoop(text, { pieceSize, stopAtRead, failAtRead, cancelAfterPiece, doneAfterLines, parsedFails });
    QTEST(run.end, "end");
    QTEST(run.lines, "lines");
    QTEST(run.parsed, "parsed");
    QTEST(run.rest, "rest");
    QTEST(run.error, "error");
    QTEST(run.reads, "reads");
}

// readTextInPieces() on a trace file: the errors the importers report with the file's name.
void TestTextPieceReader::fileErrors()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString empty = dir.filePath(QStringLiteral("empty.log"));
    const QString lines = dir.filePath(QStringLiteral("lines.log"));
    {
        QFile file(empty);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QFile other(lines);
        QVERIFY(other.open(QIODevice::WriteOnly));
        QCOMPARE(other.write("a\nb\n"), 4);
    }
    // Reads `path` whole with a parser of complete lines; the error, or "rest: ..." on success.
    const auto readFile = [](const QString &path, const ImportProgress &progress) -> QString {
        const TextPieceParser parser {
            [](const char *data, qsizetype size) { return QByteArrayView(data, size).lastIndexOf('\n') + 1; },
            [] { return qint64(0); },
        };
        TraceFileReader reader(path);
        if (!reader.open())
            return reader.errorString();
        ProgressThrottle throttle(progress);
        QByteArray buffer;
        QByteArrayView rest;
        QString error;
        if (!readTextInPieces(reader, path, 64, parser, throttle, &buffer, &rest, &error))
            return error;
        return QStringLiteral("rest: ") + QString::fromLatin1(rest);
    };

    QCOMPARE(readFile(empty, {}), empty + QStringLiteral(": empty file"));
    QCOMPARE(readFile(lines, {}), QStringLiteral("rest: "));
    QList<double> fractions;
    const ImportProgress cancel = [&](double fraction) {
        fractions << fraction;
        return false;
    };
    QCOMPARE(readFile(lines, cancel), lines + QStringLiteral(": import cancelled"));
    QCOMPARE(fractions, QList<double> { 1.0 });
}

QTEST_GUILESS_MAIN(TestTextPieceReader)
#include "tst_textpiecereader.moc"
