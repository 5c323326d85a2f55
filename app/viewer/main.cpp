// SPDX-License-Identifier: MIT
// memhist-viewer [FILE]: the desktop viewer. FILE is a history (.memhist) to open or a trace to
// import first.
#include "core/model/numbertext.h"
#include "core/storage/sqlite.h"
#include "mainwindow.h"
#include "screenshotdirector.h"

#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>

namespace {

// "T,A" with decimal or 0x numbers.
bool parsePair(const QString &text, std::uint64_t *first, std::uint64_t *second)
{
    const QStringList parts = text.split(u',');
    if (parts.size() != 2)
        return false;
    return memhist::parseUnsigned(parts[0].trimmed().toLatin1(), first)
        && memhist::parseUnsigned(parts[1].trimmed().toLatin1(), second);
}

int usageError(const QString &message)
{
    std::fprintf(stderr, "memhist-viewer: %s (see --help)\n", qPrintable(message));
    return 2;
}

// The viewer's command line, described once for both parsers main() may run.
struct ViewerOptions
{
    QCommandLineOption screenshot { QStringLiteral("screenshot"),
        QStringLiteral("Save a picture of the window to FILE once the history is shown, then quit."),
        QStringLiteral("FILE") };
    QCommandLineOption size { QStringLiteral("size"),
        QStringLiteral("The window's size, e.g. 1280x800 (for screenshots)."), QStringLiteral("WxH") };
    QCommandLineOption click { QStringLiteral("click"),
        QStringLiteral("Once loaded, click the plane at transition T and address A (forward)."),
        QStringLiteral("T,A") };
    QCommandLineOption clickBack { QStringLiteral("click-back"),
        QStringLiteral("Once loaded, Ctrl+click the plane at transition T and address A (backward)."),
        QStringLiteral("T,A") };
    QCommandLineOption zoomTransitions { QStringLiteral("zoom-transitions"),
        QStringLiteral("Once loaded, zoom the plane to transitions T1..T2 (with --zoom-addresses)."),
        QStringLiteral("T1,T2") };
    QCommandLineOption zoomAddresses { QStringLiteral("zoom-addresses"),
        QStringLiteral("Once loaded, zoom the plane to addresses A1..A2 (with --zoom-transitions)."),
        QStringLiteral("A1,A2") };
    QCommandLineOption panel { QStringLiteral("panel"),
        QStringLiteral("The panel to show: results, charts or sql below the plane; memory: the results and the "
                       "Memory pane beside them."),
        QStringLiteral("PANEL"), QStringLiteral("results") };
    QCommandLineOption selectRow { QStringLiteral("select-row"),
        QStringLiteral("Once the results have N rows, select the Nth (1 = the first): its detail and position line."),
        QStringLiteral("N") };
    QCommandLineOption sql { QStringLiteral("sql"), QStringLiteral("Once loaded, run STATEMENT in the SQL console."),
        QStringLiteral("STATEMENT") };
    QCommandLineOption origin { QStringLiteral("origin"),
        QStringLiteral("Once the row of --select-row is selected, show where its bytes came from (back) or went "
                       "(forward) in the Detail pane's Origin tab."),
        QStringLiteral("back|forward") };

    void describe(QCommandLineParser &parser) const
    {
        parser.setApplicationDescription(
            QStringLiteral("Explore a memory history: the transition x address plane, click-to-query, charts and SQL.\n"
                           "FILE is a history (.memhist) or a trace to import (any format memhist import reads)."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A history to open or a trace to import."),
            QStringLiteral("[FILE]"));
        for (const QCommandLineOption *option : { &screenshot, &size, &click, &clickBack, &zoomTransitions,
                 &zoomAddresses, &panel, &selectRow, &sql, &origin })
            parser.addOption(*option);
    }
};

// True when the command line asks only for text (--help, --version): QApplication aborts where there
// is no display, and these must answer anywhere, e.g. over ssh or in a package's build checks.
bool asksForHelpOrVersion(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArrayView argument(argv[i]);
        if (argument == "--")
            return false;
        if (argument == "-h" || argument == "--help" || argument == "-?" || argument == "--help-all" || argument == "-v"
            || argument == "--version")
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char *argv[])
{
    memhist::sqlite::configureProcess();
    QCoreApplication::setApplicationName(QStringLiteral("memhist-viewer"));
    QCoreApplication::setOrganizationName(QStringLiteral("memhist"));
    QCoreApplication::setApplicationVersion(QStringLiteral(MEMHIST_VERSION));
    const ViewerOptions options;
    QCommandLineParser parser;
    options.describe(parser);
    if (asksForHelpOrVersion(argc, argv)) {
        const QCoreApplication textOnly(argc, argv);
        parser.process(textOnly); // prints the text and exits
        return 0;
    }

    QApplication app(argc, argv);
    QApplication::setApplicationDisplayName(QStringLiteral("memhist viewer"));
    QApplication::setDesktopFileName(QStringLiteral("memhist-viewer"));
    parser.process(app);

    const QStringList files = parser.positionalArguments();
    if (files.size() > 1)
        return usageError(QStringLiteral("one FILE at most"));

    memhist::viewer::ScreenshotScene scene;
    if (parser.isSet(options.click) || parser.isSet(options.clickBack)) {
        std::uint64_t t = 0;
        std::uint64_t a = 0;
        const bool backward = parser.isSet(options.clickBack);
        if (!parsePair(parser.value(backward ? options.clickBack : options.click), &t, &a))
            return usageError(QStringLiteral("--click: expected T,A"));
        scene.clickTransition = memhist::Transition { t };
        scene.clickAddress = memhist::Address { a };
        scene.clickBackward = backward;
    }
    if (parser.isSet(options.zoomTransitions) != parser.isSet(options.zoomAddresses))
        return usageError(QStringLiteral("--zoom-transitions and --zoom-addresses go together"));
    if (parser.isSet(options.zoomTransitions)) {
        std::uint64_t t1 = 0, t2 = 0, a1 = 0, a2 = 0;
        if (!parsePair(parser.value(options.zoomTransitions), &t1, &t2) || t1 > t2)
            return usageError(QStringLiteral("--zoom-transitions: expected T1,T2 with T1 <= T2"));
        if (!parsePair(parser.value(options.zoomAddresses), &a1, &a2) || a1 > a2)
            return usageError(QStringLiteral("--zoom-addresses: expected A1,A2 with A1 <= A2"));
        scene.zoomFirstTransition = memhist::Transition { t1 };
        scene.zoomLastTransition = memhist::Transition { t2 };
        scene.zoomFirstAddress = memhist::Address { a1 };
        scene.zoomLastAddress = memhist::Address { a2 };
    }
    scene.panel = parser.value(options.panel);
    if (!QStringList {
            QStringLiteral("results"), QStringLiteral("charts"), QStringLiteral("sql"), QStringLiteral("memory") }
             .contains(scene.panel))
        return usageError(QStringLiteral("--panel: expected results, charts, sql or memory"));
    scene.sql = parser.value(options.sql);
    if (parser.isSet(options.selectRow)) {
        std::uint64_t row = 0;
        if (!memhist::parseUnsigned(parser.value(options.selectRow).toLatin1(), &row) || row == 0 || row > 1000000)
            return usageError(QStringLiteral("--select-row: expected a row number from 1"));
        scene.selectRow = int(row);
    }
    if (parser.isSet(options.origin)) {
        const QString direction = parser.value(options.origin);
        if (direction != QLatin1String("back") && direction != QLatin1String("forward"))
            return usageError(QStringLiteral("--origin: expected back or forward"));
        if (scene.selectRow == 0)
            return usageError(QStringLiteral("--origin: needs --select-row (the access to explain)"));
        scene.origin = direction == QLatin1String("back") ? memhist::Direction::Backward : memhist::Direction::Forward;
    }
    scene.outputPath = parser.value(options.screenshot);
    const bool scripted = parser.isSet(options.screenshot) || scene.clickTransition || scene.zoomFirstTransition
        || parser.isSet(options.sql) || parser.isSet(options.panel) || scene.selectRow > 0;
    if (scripted && files.isEmpty())
        return usageError(
            QStringLiteral("--screenshot, --click, --zoom-*, --panel, --select-row and --sql need a FILE"));

    memhist::viewer::MainWindow window;
    if (parser.isSet(options.screenshot)) {
        // A screenshot shows the defaults, not this user's saved layout, and never waits on a dialog.
        window.setInteractive(false);
    }
    if (parser.isSet(options.size)) {
        const QStringList size = parser.value(options.size).split(u'x');
        if (size.size() != 2 || size[0].toInt() < 200 || size[1].toInt() < 200)
            return usageError(QStringLiteral("--size: expected WxH, e.g. 1280x800"));
        window.resize(size[0].toInt(), size[1].toInt());
    }
    window.show();

    int status = 0;
    memhist::viewer::ScreenshotDirector *director = nullptr;
    if (scripted) {
        director = new memhist::viewer::ScreenshotDirector(&window, scene, &window);
        QObject::connect(director, &memhist::viewer::ScreenshotDirector::screenshotFinished, &app,
            [&status](bool ok, const QString &message) {
                std::fprintf(ok ? stdout : stderr, "memhist-viewer: %s\n", qPrintable(message));
                if (!ok)
                    status = 1;
            });
        director->start();
    }
    if (parser.isSet(options.screenshot)) {
        QObject::connect(&window, &memhist::viewer::MainWindow::errorShown, &app, [&status](const QString &message) {
            std::fprintf(stderr, "memhist-viewer: %s\n", qPrintable(message));
            status = 1;
            // Queued: an error while the file opens comes before app.exec() runs, and exit() then
            // would be lost, leaving the screenshot run waiting forever.
            QMetaObject::invokeMethod(
                QCoreApplication::instance(), [] { QCoreApplication::exit(1); }, Qt::QueuedConnection);
        });
    }
    if (!files.isEmpty())
        window.openPath(files.constFirst());
    const int result = app.exec();
    return status != 0 ? status : result;
}
