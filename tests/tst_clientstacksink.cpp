// SPDX-License-Identifier: MIT
// The client stack a recording names: the main stack size valgrind would choose from the stack
// limit; the anonymous mapping holding the first access, read from a live process's maps, made
// '[stack]' of that size ending where the mapping ends, at the first access's transition, and
// handed once to the handler that writes it into a kept log;
// and what is said when the first access is not in an anonymous mapping or the process has ended.
#include "core/recorder/clientstacksink.h"

#include <QFile>
#include <QTest>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace memhist;

namespace {

class MappingSink final : public AccessSink
{
public:
    QList<std::pair<Transition, Mapping>> mappings;
    qint64 accesses = 0;

    bool add(const Access &) override
    {
        ++accesses;
        return true;
    }
    QString errorString() const override { return {}; }
    void addMapping(Transition from, const Mapping &mapping) override { mappings.append({ from, mapping }); }
};

Access accessAt(std::uint64_t address)
{
    Access access;
    access.transition = Transition { 7 };
    access.operation = Operation::Write;
    access.physical = Address { address };
    access.linear = Address { address };
    access.size = 8;
    return access;
}

// This process's own mappings.
QList<Mapping> ownMappings()
{
    QFile file(QStringLiteral("/proc/self/maps"));
    QList<Mapping> mappings;
    QString error;
    if (!file.open(QIODevice::ReadOnly) || !parseProcessMaps(file.readAll(), file.fileName(), &mappings, &error))
        return {};
    return mappings;
}

} // namespace

class tst_ClientStackSink : public QObject
{
    Q_OBJECT

private slots:
    void mainStackSize_data();
    void mainStackSize();
    void namesTheAnonymousMappingOfTheFirstAccess();
    void firstAccessInAFileMapping();
    void processThatHasEnded();
};

void tst_ClientStackSink::mainStackSize_data()
{
    QTest::addColumn<quint64>("limit"); // RLIM_INFINITY for unlimited
    QTest::addColumn<quint64>("expected");
    QTest::newRow("8 MiB, Debian's default") << quint64(8 << 20) << quint64(8 << 20);
    QTest::newRow("below 1 MiB: 1 MiB") << quint64(512 << 10) << quint64(1 << 20);
    QTest::newRow("not whole pages: rounded up") << quint64((4 << 20) + 1) << quint64((4 << 20) + 4096);
    QTest::newRow("above 16 MiB: 16 MiB") << quint64(64 << 20) << quint64(16 << 20);
    QTest::newRow("unlimited: 16 MiB") << quint64(RLIM_INFINITY) << quint64(16 << 20);
}

void tst_ClientStackSink::mainStackSize()
{
    QFETCH(quint64, limit);
    QFETCH(quint64, expected);
    rlimit original {};
    QCOMPARE(::getrlimit(RLIMIT_STACK, &original), 0);
    if (original.rlim_max != RLIM_INFINITY && (limit == RLIM_INFINITY || limit > original.rlim_max))
        QSKIP("the hard stack limit is below this row's");
    rlimit changed = original;
    changed.rlim_cur = rlim_t(limit);
    QCOMPARE(::setrlimit(RLIMIT_STACK, &changed), 0);
    const std::uint64_t size = ClientStackSink::mainStackSize();
    QCOMPARE(::setrlimit(RLIMIT_STACK, &original), 0);
    QCOMPARE(size, expected);
}

void tst_ClientStackSink::namesTheAnonymousMappingOfTheFirstAccess()
{
    // A page of our own that no file backs.
    void *page = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    QVERIFY(page != MAP_FAILED);
    const auto address = reinterpret_cast<std::uintptr_t>(page);
    Mapping holding {};
    for (const Mapping &mapping : ownMappings()) {
        if (mapping.contains(Address { address }))
            holding = mapping;
    }
    QCOMPARE(holding.path, anonymousMappingPath());

    MappingSink inner;
    ClientStackSink sink(inner, 0x800000);
    sink.setProcess(::getpid());
    QList<Mapping> handed;
    sink.setStackNamedHandler([&handed](const Mapping &stack) { handed << stack; });
    QVERIFY(sink.addInstruction(Transition { 5 }, Address { 0x401000 }, 4));
    QVERIFY(sink.add(accessAt(address + 16)));
    QVERIFY(sink.add(accessAt(address + 32))); // looked for once
    ::munmap(page, 4096);
    QCOMPARE(inner.accesses, 2);
    QCOMPARE(inner.mappings.size(), 1);
    QCOMPARE(inner.mappings[0].first, Transition { 7 }); // the first access's
    const Mapping stack { Address { holding.last.value + 1 - 0x800000 }, holding.last, QStringLiteral("rw-p"), 0,
        QStringLiteral("[stack]") };
    QCOMPARE(inner.mappings[0].second, stack);
    QCOMPARE(handed, QList<Mapping> { stack });
    QCOMPARE(sink.problem(), QString());
}

void tst_ClientStackSink::firstAccessInAFileMapping()
{
    // This function's own code: a file mapping.
    const auto address = reinterpret_cast<std::uintptr_t>(&accessAt);
    MappingSink inner;
    ClientStackSink sink(inner, 0x800000);
    sink.setProcess(::getpid());
    QVERIFY(sink.add(accessAt(address)));
    QCOMPARE(inner.mappings.size(), 0);
    QCOMPARE(sink.problem(),
        QStringLiteral("the client stack is not named: the program's first access (0x%1) is not in an anonymous "
                       "mapping of valgrind's")
            .arg(address, 0, 16));
}

void tst_ClientStackSink::processThatHasEnded()
{
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0)
        ::_exit(0);
    // Ended but not yet reaped: its maps are empty.
    QVERIFY(QTest::qWaitFor(
        [child] {
            QFile status(QStringLiteral("/proc/%1/stat").arg(child));
            return status.open(QIODevice::ReadOnly) && status.readAll().contains(") Z ");
        },
        60000));
    MappingSink inner;
    ClientStackSink ended(inner, 0x800000);
    ended.setProcess(child);
    QVERIFY(ended.add(accessAt(0x1fff000000)));
    QCOMPARE(ended.problem(),
        QStringLiteral("the client stack is not named: valgrind had ended before its memory map could be read"));
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);

    // Reaped: no maps at all.
    ClientStackSink gone(inner, 0x800000);
    gone.setProcess(child);
    QVERIFY(gone.add(accessAt(0x1fff000000)));
    QCOMPARE(gone.problem(),
        QStringLiteral("the client stack is not named: /proc/%1/maps: No such file or directory").arg(child));
    QCOMPARE(inner.mappings.size(), 0);
}

QTEST_GUILESS_MAIN(tst_ClientStackSink)
#include "tst_clientstacksink.moc"
