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

} // namespace

int main(int argc, char *argv[])
{
    memhist::sqlite::configureProcess();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("memhist-viewer"));
    QApplication::setOrganizationName(QStringLiteral("memhist"));
    QApplication::setApplicationDisplayName(QStringLiteral("memhist viewer"));
    QApplication::setApplicationVersion(QStringLiteral(MEMHIST_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("memhist-viewer"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Explore a memory history: the transition x address plane, click-to-query, charts and SQL.\n"
                       "FILE is a history (.memhist) or a trace to import (any format memhist import reads)."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("FILE"), QStringLiteral("A history to open or a trace to import."), QStringLiteral("[FILE]"));
    const QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
        QStringLiteral("Save a picture of the window to FILE once the history is shown, then quit."),
        QStringLiteral("FILE"));
    const QCommandLineOption sizeOption(QStringLiteral("size"),
        QStringLiteral("The window's size, e.g. 1280x800 (for screenshots)."), QStringLiteral("WxH"));
    const QCommandLineOption clickOption(QStringLiteral("click"),
        QStringLiteral("Once loaded, click the plane at transition T and address A (forward)."), QStringLiteral("T,A"));
    const QCommandLineOption clickBackOption(QStringLiteral("click-back"),
        QStringLiteral("Once loaded, Ctrl+click the plane at transition T and address A (backward)."),
        QStringLiteral("T,A"));
    const QCommandLineOption zoomTransitionsOption(QStringLiteral("zoom-transitions"),
        QStringLiteral("Once loaded, zoom the plane to transitions T1..T2 (with --zoom-addresses)."),
        QStringLiteral("T1,T2"));
    const QCommandLineOption zoomAddressesOption(QStringLiteral("zoom-addresses"),
        QStringLiteral("Once loaded, zoom the plane to addresses A1..A2 (with --zoom-transitions)."),
        QStringLiteral("A1,A2"));
    const QCommandLineOption panelOption(QStringLiteral("panel"),
        QStringLiteral("The panel to show below the plane: results, charts or sql."), QStringLiteral("PANEL"),
        QStringLiteral("results"));
    const QCommandLineOption sqlOption(QStringLiteral("sql"),
        QStringLiteral("Once loaded, run STATEMENT in the SQL console."), QStringLiteral("STATEMENT"));
    for (const QCommandLineOption &option : { screenshotOption, sizeOption, clickOption, clickBackOption,
             zoomTransitionsOption, zoomAddressesOption, panelOption, sqlOption })
        parser.addOption(option);
    parser.process(app);

    const QStringList files = parser.positionalArguments();
    if (files.size() > 1)
        return usageError(QStringLiteral("one FILE at most"));

    memhist::viewer::ScreenshotScene scene;
    if (parser.isSet(clickOption) || parser.isSet(clickBackOption)) {
        std::uint64_t t = 0;
        std::uint64_t a = 0;
        const bool backward = parser.isSet(clickBackOption);
        if (!parsePair(parser.value(backward ? clickBackOption : clickOption), &t, &a))
            return usageError(QStringLiteral("--click: expected T,A"));
        scene.clickTransition = memhist::Transition { t };
        scene.clickAddress = memhist::Address { a };
        scene.clickBackward = backward;
    }
    if (parser.isSet(zoomTransitionsOption) != parser.isSet(zoomAddressesOption))
        return usageError(QStringLiteral("--zoom-transitions and --zoom-addresses go together"));
    if (parser.isSet(zoomTransitionsOption)) {
        std::uint64_t t1 = 0, t2 = 0, a1 = 0, a2 = 0;
        if (!parsePair(parser.value(zoomTransitionsOption), &t1, &t2) || t1 > t2)
            return usageError(QStringLiteral("--zoom-transitions: expected T1,T2 with T1 <= T2"));
        if (!parsePair(parser.value(zoomAddressesOption), &a1, &a2) || a1 > a2)
            return usageError(QStringLiteral("--zoom-addresses: expected A1,A2 with A1 <= A2"));
        scene.zoomFirstTransition = memhist::Transition { t1 };
        scene.zoomLastTransition = memhist::Transition { t2 };
        scene.zoomFirstAddress = memhist::Address { a1 };
        scene.zoomLastAddress = memhist::Address { a2 };
    }
    scene.panel = parser.value(panelOption);
    if (!QStringList { QStringLiteral("results"), QStringLiteral("charts"), QStringLiteral("sql") }.contains(
            scene.panel))
        return usageError(QStringLiteral("--panel: expected results, charts or sql"));
    scene.sql = parser.value(sqlOption);
    scene.outputPath = parser.value(screenshotOption);
    const bool scripted = parser.isSet(screenshotOption) || scene.clickTransition || scene.zoomFirstTransition
        || parser.isSet(sqlOption) || parser.isSet(panelOption);
    if (scripted && files.isEmpty())
        return usageError(QStringLiteral("--screenshot, --click, --zoom-*, --panel and --sql need a FILE"));

    memhist::viewer::MainWindow window;
    if (parser.isSet(screenshotOption)) {
        // A screenshot shows the defaults, not this user's saved layout, and never waits on a dialog.
        window.setInteractive(false);
    }
    if (parser.isSet(sizeOption)) {
        const QStringList size = parser.value(sizeOption).split(u'x');
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
    if (parser.isSet(screenshotOption)) {
        QObject::connect(&window, &memhist::viewer::MainWindow::errorShown, &app, [&status](const QString &message) {
            std::fprintf(stderr, "memhist-viewer: %s\n", qPrintable(message));
            status = 1;
            QCoreApplication::exit(1);
        });
    }
    if (!files.isEmpty())
        window.openPath(files.constFirst());
    const int result = app.exec();
    return status != 0 ? status : result;
}
