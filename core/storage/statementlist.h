// SPDX-License-Identifier: MIT
// What every statements header exposes besides its statements: the list of them, by name, so that
// tst_statements prepares each one against the schema and checks the plan it was written for. A
// listed statement without a row in tst_statements fails that test; a statement left out of its
// header's list is not seen by it, so add each new constant to the list below it.
#pragma once

namespace memhist::statements {

struct NamedStatement
{
    const char *name; // the constant's name in its header
    const char *sql;
};

} // namespace memhist::statements

// One entry of a statements list, named after its constant (so the name cannot drift from it).
#define MEMHIST_STATEMENT(constant) (::memhist::statements::NamedStatement { #constant, constant })
