// The import dialog: its window fields read as `memhist import` reads --skip-instructions and
// --max-instructions, and the choice it returns is what the user filled in.
#include "importdialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>

using namespace memhist;
using namespace memhist::viewer;

class TestImportDialog : public QObject
{
    Q_OBJECT
private slots:
    void parsesTheWindow_data()
    {
        QTest::addColumn<QString>("skip");
        QTest::addColumn<QString>("atMost");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<quint64>("skipped");
        QTest::addColumn<qint64>("limit"); // -1: no limit
        QTest::addColumn<QString>("error");
        QTest::newRow("both empty: the whole trace") << QString() << QString() << true << 0ULL << -1LL << QString();
        QTest::newRow("decimal") << QStringLiteral("1000") << QStringLiteral("250") << true << 1000ULL << 250LL
                                 << QString();
        QTest::newRow("hex, blanks around")
            << QStringLiteral(" 0x10 ") << QStringLiteral("0x100") << true << 16ULL << 256LL << QString();
        QTest::newRow("010 is ten, not octal")
            << QStringLiteral("010") << QString() << true << 10ULL << -1LL << QString();
        QTest::newRow("largest skip") << QStringLiteral("18446744073709551615") << QString() << true
                                      << 18446744073709551615ULL << -1LL << QString();
        QTest::newRow("at most 0 is a window of nothing")
            << QString() << QStringLiteral("0") << true << 0ULL << 0LL << QString();
        QTest::newRow("negative skip") << QStringLiteral("-5") << QString() << false << 0ULL << -1LL
                                       << QStringLiteral("Skip: '-5' is not a number of instructions (decimal or 0x "
                                                         "hex, up to 2^64-1)");
        QTest::newRow("words in at most")
            << QString() << QStringLiteral("ten") << false << 0ULL << -1LL
            << QStringLiteral("At most: 'ten' is not a number of instructions (decimal or 0x hex, up to 2^64-1)");
        QTest::newRow("skip past 64 bits")
            << QStringLiteral("18446744073709551616") << QString() << false << 0ULL << -1LL
            << QStringLiteral("Skip: '18446744073709551616' is not a number of instructions (decimal or 0x hex, up "
                              "to 2^64-1)");
    }
    void parsesTheWindow()
    {
        QFETCH(QString, skip);
        QFETCH(QString, atMost);
        QFETCH(bool, ok);
        QFETCH(quint64, skipped);
        QFETCH(qint64, limit);
        QFETCH(QString, error);
        ImportOptions options;
        QString message;
        QCOMPARE(parseImportWindow(skip, atMost, &options, &message), ok);
        QCOMPARE(message, error);
        if (!ok)
            return;
        QCOMPARE(options.skipInstructions, skipped);
        QCOMPARE(options.maxInstructions.has_value(), limit >= 0);
        if (limit >= 0)
            QCOMPARE(*options.maxInstructions, quint64(limit));
    }

    // Filled as a user would: the choice holds the fields; a bad field disables Import and says why.
    void theChoiceIsWhatWasFilledIn()
    {
        ImportDialog dialog({ QStringLiteral("/traces/a.lackey.gz") }, QStringLiteral("/tmp/a.memhist"));
        auto *output = dialog.findChild<QLineEdit *>(QStringLiteral("outputEdit"));
        auto *withExecute = dialog.findChild<QCheckBox *>(QStringLiteral("withExecuteCheck"));
        auto *skip = dialog.findChild<QLineEdit *>(QStringLiteral("skipEdit"));
        auto *atMost = dialog.findChild<QLineEdit *>(QStringLiteral("atMostEdit"));
        auto *problem = dialog.findChild<QLabel *>(QStringLiteral("problemLabel"));
        auto *buttons = dialog.findChild<QDialogButtonBox *>();
        QVERIFY(output && withExecute && skip && atMost && problem && buttons);
        QPushButton *import = nullptr;
        for (QAbstractButton *button : buttons->buttons()) {
            if (buttons->buttonRole(button) == QDialogButtonBox::AcceptRole)
                import = qobject_cast<QPushButton *>(button);
        }
        QVERIFY(import);

        QCOMPARE(output->text(), QStringLiteral("/tmp/a.memhist"));
        QVERIFY(import->isEnabled());
        ImportChoice choice = dialog.choice();
        QCOMPARE(choice.output, QStringLiteral("/tmp/a.memhist"));
        QCOMPARE(choice.options.withExecute, false);
        QCOMPARE(choice.options.skipInstructions, 0u);
        QVERIFY(!choice.options.maxInstructions);

        QTest::keyClicks(skip, QStringLiteral("x1"));
        QVERIFY(!import->isEnabled());
        QCOMPARE(problem->text(),
            QStringLiteral("Skip: 'x1' is not a number of instructions (decimal or 0x hex, up to 2^64-1)"));
        skip->clear();
        QTest::keyClicks(skip, QStringLiteral("0x1000"));
        QTest::keyClicks(atMost, QStringLiteral("500"));
        withExecute->setChecked(true);
        output->setText(QStringLiteral("/tmp/window"));
        QVERIFY(import->isEnabled());
        QCOMPARE(problem->text(), QString());
        choice = dialog.choice();
        QCOMPARE(choice.output, QStringLiteral("/tmp/window.memhist"));
        QCOMPARE(choice.options.withExecute, true);
        QCOMPARE(choice.options.skipInstructions, 4096u);
        QCOMPARE(choice.options.maxInstructions, std::optional<std::uint64_t>(500));

        output->clear();
        QVERIFY(!import->isEnabled());
        QCOMPARE(problem->text(), QStringLiteral("Choose where the history is written."));
    }
};

QTEST_MAIN(TestImportDialog)
#include "tst_importdialog.moc"
