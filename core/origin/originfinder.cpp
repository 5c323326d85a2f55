// SPDX-License-Identifier: MIT
#include "core/origin/originfinder.h"

#include "core/origin/origintreebuilder.h"

namespace memhist {

const char *hopKindName(HopKind kind)
{
    switch (kind) {
    case HopKind::Access:
        return "access";
    case HopKind::LastWrite:
        return "last_write";
    case HopKind::Register:
        return "register";
    case HopKind::Load:
        return "load";
    case HopKind::Computed:
        return "computed";
    case HopKind::Kernel:
        return "kernel";
    case HopKind::Initial:
        return "initial";
    case HopKind::Unknown:
        break;
    }
    return "unknown";
}

const char *confidenceName(Confidence confidence)
{
    switch (confidence) {
    case Confidence::Exact:
        return "exact";
    case Confidence::Computed:
        return "computed";
    case Confidence::Unchecked:
        break;
    }
    return "unchecked";
}

OriginFinder::OriginFinder(HistoryDatabase &database)
    : d(std::make_unique<OriginTreeBuilder>(database))
{ }

OriginFinder::~OriginFinder() = default;

bool OriginFinder::hasCode() const
{
    return d->code;
}

bool OriginFinder::hasValues() const
{
    return d->values.available();
}

bool OriginFinder::find(const OriginRequest &request, OriginTree *tree, QString *error)
{
    return d->find(request, tree, error);
}

std::optional<Access> OriginFinder::accessAt(RowId row)
{
    return d->accessAt(row);
}

} // namespace memhist
