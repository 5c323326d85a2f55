// SPDX-License-Identifier: MIT
#include "widgets/plane/planecontext.h"

#include "core/context/contextreader.h"
#include "core/model/numbertext.h"
#include "core/storage/historydatabase.h"
#include "widgets/plane/planecoordinates.h"
#include "widgets/plane/planestatements.h"

#include <QCoreApplication>
#include <QHash>
#include <QSet>
#include <algorithm>

namespace memhist::plane {

namespace {

// The texts are the plane widget's (one translation context for everything it shows).
QString tr(const char *text)
{
    return QCoreApplication::translate("memhist::PlaneWidget", text);
}

QString fileName(const QString &path)
{
    const qsizetype slash = path.lastIndexOf(u'/');
    return slash < 0 ? path : path.mid(slash + 1);
}

bool byAddress(const NamedRange &a, const NamedRange &b)
{
    if (a.first != b.first)
        return a.first < b.first;
    if (a.last != b.last)
        return a.last > b.last;
    return a.name < b.name;
}

void sortUnique(std::vector<NamedRange> &ranges)
{
    std::sort(ranges.begin(), ranges.end(), byAddress);
    ranges.erase(std::unique(ranges.begin(), ranges.end()), ranges.end());
}

} // namespace

AddressNames readAddressNames(HistoryDatabase &database, ContextReader &reader, const ThreadSpans &threads)
{
    AddressNames names;
    sqlite::Connection &db = database.connection();
    QHash<qint64, QString> moduleNames;
    for (const ModuleRow &module : reader.modules())
        moduleNames.insert(module.id, fileName(module.module.path));

    // Sections first: a module's mappings that its sections cover are named by them.
    QSet<qint64> sectioned;
    if (reader.has("modules")) {
        sqlite::Statement sections = db.prepare(statements::sectionNames);
        while (sections.isValid() && sections.step() == SQLITE_ROW) {
            const qint64 module = sections.int64(0);
            sectioned.insert(module);
            const QString owner = moduleNames.value(module);
            names.regions.push_back({ fromStored(sections.int64(2)), fromStored(sections.int64(3)),
                owner.isEmpty() ? sections.text(1) : owner + u' ' + sections.text(1), 1 });
        }
    }
    if (reader.has("map")) {
        sqlite::Statement mappings = db.prepare(statements::mappingNames);
        while (mappings.isValid() && mappings.step() == SQLITE_ROW) {
            const bool hasModule = !mappings.isNull(3);
            if (hasModule && sectioned.contains(mappings.int64(3)))
                continue;
            const QString path = mappings.text(2);
            names.regions.push_back({ fromStored(mappings.int64(0)), fromStored(mappings.int64(1)),
                path.startsWith(u'[') ? path : fileName(path) });
        }
    }
    if (reader.has("symbols")) {
        for (const memhist::NamedRange &object : reader.namedRanges(memhist::NamedRange::Kind::DataObject))
            names.symbols.push_back({ object.range.first.value, object.range.last.value, object.name });
    }
    sortUnique(names.regions);
    sortUnique(names.symbols);
    for (const ThreadSummary &thread : threads.threads())
        names.threads << thread.threadId;
    return names;
}

QString accessContextText(ContextReader &reader, const ThreadSpans &threads, const Access &access)
{
    QStringList parts;
    if (const std::optional<Address> pc = reader.pcAt(access.transition)) {
        const CodeDescription code = reader.describeCode(*pc, access.transition);
        if (!code.instruction.isEmpty())
            parts << tr("instruction %1").arg(code.instruction);
        else
            parts << tr("pc %1").arg(hexText(pc->value));
        if (!code.functionText().isEmpty())
            parts << tr("in %1").arg(code.functionText());
        else if (code.hasModule())
            parts << tr("in %1").arg(code.moduleText());
        if (!code.sourceText().isEmpty())
            parts << tr("at %1").arg(code.sourceText());
    }
    if (const std::optional<qint64> thread = threads.threadAt(access.transition))
        parts << tr("thread %1").arg(*thread);
    const QString what = reader.describeAddress(access.physical, access.transition).text();
    if (!what.isEmpty())
        parts << tr("accessed: %1").arg(what);
    return parts.join(QStringLiteral(" · "));
}

int threadIndex(const QList<qint64> &threads, qint64 threadId)
{
    const auto it = std::lower_bound(threads.begin(), threads.end(), threadId);
    return it != threads.end() && *it == threadId ? int(it - threads.begin()) : -1;
}

// Lives on a context thread and owns its connection, reader and thread spans.
class ContextWorker : public ConnectionWorker
{
public:
    HistoryDatabase &database() { return *m_database; }
    ContextReader &reader() { return *m_reader; }
    const ThreadSpans &threads() const { return *m_threads; }

protected:
    bool openConnection(const QString &path, QString *error) override
    {
        m_database = HistoryDatabase::open(path, error);
        if (!m_database)
            return false;
        m_database->connection().execute(statements::connectionPragmas);
        m_reader = std::make_unique<ContextReader>(*m_database);
        m_threads = std::make_unique<ThreadSpans>(*m_database);
        setInterruptible(m_database->connection().handle());
        return true;
    }
    void closeConnection() override
    {
        setInterruptible(nullptr);
        m_threads.reset();
        m_reader.reset();
        m_database.reset();
    }

private:
    std::unique_ptr<HistoryDatabase> m_database;
    std::unique_ptr<ContextReader> m_reader;
    std::unique_ptr<ThreadSpans> m_threads;
};

PlaneContext::PlaneContext(QObject *parent)
    : QObject(parent)
    , m_names(std::make_unique<ConnectionThread<ContextWorker>>(this, QStringLiteral("memhist plane context")))
    , m_hover(std::make_unique<ConnectionThread<ContextWorker>>(this, QStringLiteral("memhist plane hover")))
{
    qRegisterMetaType<memhist::Access>();
}

PlaneContext::~PlaneContext() = default;

void PlaneContext::setHistory(const QString &path)
{
    m_path = path;
    m_names->cancel();
    m_hover->cancel();
    if (path.isEmpty())
        return;
    // Not superseded by the span requests that follow on the same thread: delivered whatever comes
    // after (the receiver checks the path).
    m_names->post(
        [path](ContextWorker &worker) {
            std::shared_ptr<const AddressNames> names;
            QString error;
            if (worker.ensureOpen(path, &error))
                names = std::make_shared<AddressNames>(
                    readAddressNames(worker.database(), worker.reader(), worker.threads()));
            return names;
        },
        [this, path](const std::shared_ptr<const AddressNames> &names) {
            if (names)
                emit namesRead(path, names);
        });
}

void PlaneContext::describe(const Access &access)
{
    if (m_path.isEmpty())
        return;
    m_hover->post(
        m_hover->supersede(),
        [path = m_path, access](ContextWorker &worker, const JobTicket &) {
            QString error;
            return worker.ensureOpen(path, &error) ? accessContextText(worker.reader(), worker.threads(), access)
                                                   : QString();
        },
        [this, access](const QString &text) { emit described(access, text); });
}

void PlaneContext::readThreadSpans(Transition first, Transition last)
{
    if (m_path.isEmpty())
        return;
    m_names->post(
        m_names->supersede(),
        [path = m_path, first, last](ContextWorker &worker, const JobTicket &) {
            QString error;
            QList<ThreadSpan> spans;
            if (worker.ensureOpen(path, &error) && worker.threads().available())
                spans = worker.threads().spansBetween(first, last);
            return spans;
        },
        [this, first, last](const QList<ThreadSpan> &spans) { emit threadSpansRead(first, last, spans); });
}

} // namespace memhist::plane
