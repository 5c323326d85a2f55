// SPDX-License-Identifier: MIT
// Deciding each byte of a range by the first access of a half-axis query that covers it: the
// walk behind memory at T (MemoryReader: each byte's last access before T, then its first after)
// and behind a read's last writes (LastWrites: `memhist origin`, `search --unexplained`).
//
// The walk runs the query page by page and gives each access, in the query's order, the bytes it
// covers that no earlier access decided. As bytes are decided it narrows the window to the bytes
// still undecided, first to last, and names those bytes to the engine (HalfAxisQuery::needed),
// which then skips the chunks of the decided ones. Pages start small and double: the bytes near
// the start are answered at once, and a range of a few hot bytes still ends in a few pages. It
// ends when every byte is decided, the query is exhausted, or the caller stops it.
#pragma once

#include "core/query/halfaxisquery.h"

#include <QString>
#include <algorithm>
#include <cstdint>
#include <vector>

namespace memhist {

class ByteWalk
{
public:
    // Rows per page: on the 10^8 benchmark history each slice a page crosses costs 25-100 us
    // (chunk lookups, rows, database pages outside SQLite's cache); a 1024-row page for two bytes
    // still unknown, accessed a few times per slice, crossed 243 slices (26 ms) for an answer its
    // first row gave. So a walk starts small, doubles, and never asks for more than a few rows per
    // byte still undecided.
    static constexpr quint64 firstPageRows = 128;
    static constexpr quint64 maxPageRows = 1024;
    static constexpr quint64 pageRowsPerUndecidedByte = 8;

    // Queries through `engine`, which must outlive this object.
    explicit ByteWalk(HalfAxisQueryEngine &engine)
        : m_engine(engine)
    { }

    // Walks `query` (its direction, start and operations; its window and limit are the walk's) over
    // the bytes [rangeFirst, rangeFirst + decided.size() - 1], deciding those not yet marked in
    // `decided`. `decide(access, index)` is called once per byte decided, index being the byte's
    // offset in the range, with the first access in the query's order that covers it; it returns
    // false to stop the whole walk there (the byte counts as decided). Returns false on a database
    // error (*error set), true otherwise, stopped or not.
    template<typename Decide>
    bool run(const HalfAxisQuery &query, std::uint64_t rangeFirst, std::vector<bool> &decided, const Decide &decide,
        QString *error)
    {
        if (decided.empty())
            return true;
        m_stopped = false;
        return walk(query, rangeFirst, 0, decided.size() - 1, decided, decide, error, 0);
    }

private:
    // How a walk splits around bytes that fill its pages without deciding anything (see walk()).
    static constexpr std::size_t maxCuts = 8;
    static constexpr int maxSplitDepth = 4;

    // The first and last bytes of [spanFirst, spanLast] not yet decided; false when all are.
    static bool undecidedSpan(const std::vector<bool> &decided, std::uint64_t spanFirst, std::uint64_t spanLast,
        std::uint64_t *first, std::uint64_t *last)
    {
        const auto spanBegin = decided.begin() + std::ptrdiff_t(spanFirst);
        const auto spanEnd = decided.begin() + std::ptrdiff_t(spanLast + 1);
        const auto begin = std::find(spanBegin, spanEnd, false);
        if (begin == spanEnd)
            return false;
        auto end = spanEnd;
        while (*(end - 1))
            --end;
        *first = std::uint64_t(begin - decided.begin());
        *last = std::uint64_t(end - 1 - decided.begin());
        return true;
    }

    // One walk over the bytes [spanFirst, spanLast] of the range. A byte decided early but accessed
    // all the time (a loop counter) may stay inside the window, between bytes nothing accesses,
    // and bring its accesses when they share chunks with undecided bytes or when the engine scans
    // a slice's rows, filling pages that decide nothing. When a full page decides almost nothing,
    // the walk goes on as one walk per stretch between the bytes those wasted accesses touched
    // most, each from where this one stopped: the bytes are disjoint and each walk keeps the
    // query's order, so each byte is still decided by its first access in that order.
    template<typename Decide>
    bool walk(HalfAxisQuery query, std::uint64_t rangeFirst, std::uint64_t spanFirst, std::uint64_t spanLast,
        std::vector<bool> &decided, const Decide &decide, QString *error, int depth)
    {
        quint64 pageRows = firstPageRows;
        std::vector<quint32> wasted; // per byte of the span: accesses of a page that found it decided
        for (;;) {
            std::uint64_t first = 0;
            std::uint64_t last = 0;
            if (!undecidedSpan(decided, spanFirst, spanLast, &first, &last))
                return true;
            query.first = Address { rangeFirst + first };
            query.last = Address { rangeFirst + last };
            quint64 undecided = 0;
            query.needed.clear();
            for (std::uint64_t index = first; index <= last; ++index) {
                if (decided[index])
                    continue;
                ++undecided;
                const Address address { rangeFirst + index };
                if (!query.needed.isEmpty() && query.needed.constLast().last.value + 1 == address.value)
                    query.needed.last().last = address;
                else
                    query.needed.append({ address, address });
            }
            query.limit = std::min(pageRows, undecided * pageRowsPerUndecidedByte);
            pageRows = std::min(pageRows * 2, maxPageRows);
            QueryPage page;
            if (!m_engine.run(query, &page, error))
                return false;
            wasted.assign(std::size_t(spanLast - spanFirst + 1), 0);
            qsizetype deciding = 0; // accesses of the page that decided a byte
            for (const Access &access : std::as_const(page.accesses)) {
                const std::uint64_t from = std::max(access.physical.value, query.first.value);
                const std::uint64_t to = std::min(access.lastByte().value, query.last.value);
                if (from > to)
                    continue;
                bool decidedOne = false;
                for (std::uint64_t address = from; address <= to; ++address) {
                    const std::size_t index = std::size_t(address - rangeFirst);
                    if (decided[index]) {
                        ++wasted[index - spanFirst];
                        continue;
                    }
                    decided[index] = true;
                    decidedOne = true;
                    if (!decide(access, std::uint64_t(index))) {
                        m_stopped = true;
                        return true;
                    }
                }
                deciding += decidedOne ? 1 : 0;
            }
            if (page.exhausted)
                return true;
            query.resumeAfter = page.resumePoint();
            if (deciding * 16 < page.accesses.size() && depth < maxSplitDepth)
                return split(query, rangeFirst, first, last, wasted, spanFirst, decided, decide, error, depth);
        }
    }

    // Goes on with one walk per stretch of [first, last] between its most wasted bytes (at most
    // maxCuts of them, each wasted by at least 1/64 of the page `query` asked for).
    template<typename Decide>
    bool split(const HalfAxisQuery &query, std::uint64_t rangeFirst, std::uint64_t first, std::uint64_t last,
        const std::vector<quint32> &wasted, std::uint64_t spanFirst, std::vector<bool> &decided, const Decide &decide,
        QString *error, int depth)
    {
        std::vector<std::uint64_t> hot;
        for (std::uint64_t index = first; index <= last; ++index) {
            if (wasted[index - spanFirst] * 64 >= query.limit)
                hot.push_back(index);
        }
        std::sort(hot.begin(), hot.end(),
            [&](std::uint64_t a, std::uint64_t b) { return wasted[a - spanFirst] > wasted[b - spanFirst]; });
        if (hot.size() > maxCuts)
            hot.resize(maxCuts);
        std::sort(hot.begin(), hot.end());
        std::uint64_t from = first;
        for (const std::uint64_t cut : hot) {
            if (cut > from && !walk(query, rangeFirst, from, cut - 1, decided, decide, error, depth + 1))
                return false;
            if (m_stopped)
                return true;
            from = cut + 1;
        }
        return from > last || walk(query, rangeFirst, from, last, decided, decide, error, depth + 1);
    }

    HalfAxisQueryEngine &m_engine;
    bool m_stopped = false;
};

} // namespace memhist
