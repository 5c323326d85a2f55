// SPDX-License-Identifier: MIT
// A half-axis query's function filter (HalfAxisQuery::function): only the accesses made by the
// instructions of a function, or, with its callees, those made while it ran. A plain value, so that
// a query carrying it crosses threads and is compared as any other field; the engine resolves the
// name against the history's functions table (core/query/functionruns.h).
#pragma once

#include <QString>

namespace memhist {

struct FunctionFilter
{
    // As `memhist query --function` takes it (ContextReader::functionsNamed): "main", or a C++
    // name without its parameters ("Shape::area" finds "Shape::area() const"); every function of
    // that name counts (one per module, overloads). Empty: no filter.
    QString name;
    // False: the accesses of transitions whose PC lies in the function. True: every access from a
    // call of the function (its entry instruction) to the return to its caller, its callees' too.
    bool withCallees = false;

    bool isSet() const { return !name.isEmpty(); }
    friend bool operator==(const FunctionFilter &, const FunctionFilter &) = default;
};

} // namespace memhist
