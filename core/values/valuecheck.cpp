// SPDX-License-Identifier: MIT
#include "core/values/valuecheck.h"

#include "core/model/numbertext.h"
#include "core/values/valuestatements.h"

#include <array>
#include <bitset>

namespace memhist {

namespace {

constexpr std::uint64_t pageSize = 4096;

} // namespace

struct ValueCheck::Page
{
    std::array<std::uint8_t, pageSize> bytes {};
    std::bitset<pageSize> written; // the byte's last write is known (its value is in `bytes`)
};

ValueCheck::ValueCheck(sqlite::Connection &connection, Report report)
    : m_report(std::move(report))
    , m_blocks(connection.prepare(valueschema::blocksFrom))
{
    m_available = m_blocks.isValid();
    if (m_available)
        m_blocks.bind(1, 0);
}

ValueCheck::~ValueCheck() = default;

void ValueCheck::seekBlock(qint64 rowId)
{
    while (!m_blocksDone && (!m_haveBlock || m_block.last() < rowId)) {
        const int rc = m_blocks.step();
        if (rc != SQLITE_ROW) {
            m_blocksDone = true;
            m_haveBlock = false;
            if (rc != SQLITE_DONE)
                m_report(blocksReadable,
                    QStringLiteral("cannot read access_value_blocks: %1 [%2]")
                        .arg(QString::fromUtf8(sqlite3_errstr(rc)), QLatin1StringView(blocksReadable)));
            return;
        }
        const qint64 first = m_blocks.int64(0);
        const qint64 last = m_blocks.int64(1);
        m_haveBlock = m_block.decode(first, last, m_blocks.blobView(2), m_blocks.blob(3));
        if (!m_haveBlock) {
            m_report(blocksReadable,
                QStringLiteral("the value block of accesses %1..%2: its layout does not describe its %3 bytes [%4]")
                    .arg(first)
                    .arg(last)
                    .arg(m_blocks.blobView(3).size())
                    .arg(QLatin1StringView(blocksReadable)));
        }
    }
}

ValueCheck::Page *ValueCheck::page(std::uint64_t number)
{
    auto it = m_pages.find(number);
    if (it != m_pages.end())
        return it->second.get();
    if (m_pages.size() >= maxPages) {
        m_imageFull = true;
        return nullptr;
    }
    return m_pages.emplace(number, std::make_unique<Page>()).first->second.get();
}

void ValueCheck::visit(
    qint64 rowId, std::int64_t transition, Operation operation, std::uint64_t address, std::int64_t size)
{
    if (!m_available || m_imageFull || operation == Operation::Execute)
        return;
    seekBlock(rowId);
    if (!m_haveBlock || !m_block.contains(rowId))
        return;
    const std::optional<AccessValue> value = m_block.at(rowId);
    if (!value)
        return;
    if (value->bytes.size() != size) {
        m_report(valueSize,
            QStringLiteral("access %1 (transition %2): its value has %3 bytes for an access of %4 [%5]")
                .arg(rowId)
                .arg(transition)
                .arg(value->bytes.size())
                .arg(size)
                .arg(QLatin1StringView(valueSize)));
        return;
    }
    // First the comparison, byte by byte against the image, then the image takes the bytes.
    std::uint64_t mismatchAt = 0;
    bool mismatch = false;
    bool compared = false;
    QByteArray expected(value->bytes.size(), '\0');
    for (qsizetype i = 0; i < value->bytes.size(); ++i) {
        const std::uint64_t byte = address + std::uint64_t(i);
        Page *p = page(byte / pageSize);
        if (!p) {
            m_stoppedAt = rowId;
            return;
        }
        const std::size_t offset = byte % pageSize;
        const std::uint8_t actual = std::uint8_t(value->bytes[i]);
        if (operation == Operation::Read) {
            if (p->written[offset]) {
                compared = true;
                expected[i] = char(p->bytes[offset]);
                if (p->bytes[offset] != actual && !mismatch) {
                    mismatch = true;
                    mismatchAt = byte;
                }
            } else {
                expected[i] = char(actual);
            }
        } else {
            p->bytes[offset] = actual;
            p->written[offset] = true;
        }
    }
    if (!compared)
        return;
    ++m_readsCompared;
    if (!mismatch)
        return;
    ++m_mismatches;
    if (m_named.size() < namedMismatches) {
        m_named << QStringLiteral("access %1 (transition %2, %3 bytes at %4) read %5 where the last writes left %6 "
                                  "(first differing byte %7)")
                       .arg(QString::number(rowId), QString::number(transition), QString::number(size),
                           hexText(address), QString::fromLatin1(value->bytes.toHex()),
                           QString::fromLatin1(expected.toHex()), hexText(mismatchAt));
    }
}

QStringList ValueCheck::notes() const
{
    QStringList notes;
    if (!m_available)
        return notes;
    if (m_imageFull)
        notes << QStringLiteral("values: the replay stopped at access %1: the accesses before it touch more than %2 "
                                "pages of memory")
                     .arg(m_stoppedAt.value_or(0))
                     .arg(maxPages);
    if (m_mismatches == 0) {
        notes << QStringLiteral("values: every one of the %1 reads of written bytes reads what the last write left")
                     .arg(m_readsCompared);
        return notes;
    }
    notes << QStringLiteral("values: %1 of %2 reads of written bytes differ from what the last write left (memory "
                            "changed behind the trace's back: another process, a device, or a kernel effect the "
                            "recorder is not told of); `memhist search --unexplained` lists them all; the first:")
                 .arg(m_mismatches)
                 .arg(m_readsCompared);
    for (const QString &named : m_named)
        notes << QStringLiteral("  ") + named;
    return notes;
}

} // namespace memhist
