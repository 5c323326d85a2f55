// SPDX-License-Identifier: MIT
// The work behind OriginFinder (originfinder.h), shared by its three files: the tree being built and
// the readers it asks (origintreebuilder.cpp), the backward walk (originbackward.cpp) and the forward
// walk (originforward.cpp). Internal to core/origin.
#pragma once

#include "core/context/contextreader.h"
#include "core/origin/instructionflow.h"
#include "core/origin/originfinder.h"
#include "core/origin/registerwalk.h"
#include "core/query/halfaxisquery.h"
#include "core/query/rowidsearch.h"
#include "core/search/lastwrites.h"
#include "core/storage/sqlite.h"
#include "core/values/accessvaluereader.h"

#include <QHash>
#include <QString>

namespace memhist {

class OriginTreeBuilder
{
public:
    explicit OriginTreeBuilder(HistoryDatabase &database);

    // OriginFinder::find().
    bool find(const OriginRequest &request, OriginTree *tree, QString *error);
    // OriginFinder::accessAt(): the access stored at `row`, if any.
    std::optional<Access> accessAt(RowId row);

    ContextReader context;
    AccessValueReader values;
    LastWrites lastWrites;
    InstructionFlowReader flows;
    RegisterWalk walk;
    RowIdSearch rows;
    HalfAxisQueryEngine engine;
    sqlite::Statement accessByRowId;
    sqlite::Statement accessesBetween;
    bool rowsLoaded = false;
    bool code = false;

private:
    // origintreebuilder.cpp: the accesses of one instruction, values, hops.
    QList<Access> accessesAt(Transition transition, Operation operation);
    QByteArray bytesOf(RowId row);
    // Appends `hop` under `parent` with its function and source line; -1 when the tree is full.
    int addHop(OriginHop hop, int parent, int depth);
    // A hop already in the tree under `key`: a second one says so instead of repeating its subtree.
    bool repeated(const QString &key, OriginHop hop, int parent, int depth);
    bool full() const { return m_tree->truncated || !m_error.isEmpty(); }
    // The bytes `count` bytes from `address` of an access at `first` holding `bytes`; empty when it
    // does not hold them all.
    static QByteArray bytesAt(const QByteArray &bytes, std::uint64_t first, std::uint64_t address, std::uint64_t count);
    // Whether a copied value (`expected`, the bytes the copy ended in) starts with `moved` or the other
    // way round: a copy may widen (movzx) or narrow (a store of al) the value.
    static bool samePrefix(const QByteArray &expected, const QByteArray &moved);
    // `value`'s low `size` bytes (at most 8), little-endian: an immediate as the bytes it stores.
    static QByteArray littleEndian(std::int64_t value, qsizetype size);

    // originbackward.cpp: where the bytes came from.
    void readOrigin(const Access &read, const QByteArray &readBytes, int parent, int depth);
    void writeOrigin(const Access &write, const QByteArray &written, int parent, int depth);
    void instructionSources(const InstructionFlow &flow, Transition transition, Address pc, int parent, int depth,
        const QByteArray &expected);
    void registerOrigin(
        const RegisterOperand &reg, Transition before, int parent, int depth, const QByteArray &expected);

    // originforward.cpp: where they went.
    void forwardFromWrite(const Access &write, const QByteArray &written, int parent, int depth);
    void forwardFromInstruction(Transition transition, const QByteArray &moved, int parent, int depth);
    void forwardRegister(const RegisterOperand &reg, Transition after, const QByteArray &moved, int parent, int depth);

    OriginRequest m_request;
    OriginTree *m_tree = nullptr;
    QString m_error;
    QHash<QString, int> m_seen;
};

} // namespace memhist
