// SPDX-License-Identifier: MIT
// The CSV form of accesses (DESIGN.md §3): a header line, then
// `rowid,transition,operation,address,linear,size`, operation R, W or X, addresses as 0x hex,
// linear empty when unknown. Written by `memhist query --format csv` and `memhist export`, read
// back by `memhist import --format csv`.
#pragma once

#include "core/model/types.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace memhist::csv {

// "rowid,transition,operation,address,linear,size" (no line ending).
QByteArray header();

// A header line (without line ending) that is header() followed by more columns: what `export
// --thread-column` or `--context` writes, which is read but not imported.
bool hasColumnsAfterTheSix(QByteArrayView headerLine);

// One line, without line ending.
QByteArray formatRow(const Access &access);

// Parses one data line (without line ending; a trailing '\r' is tolerated). On failure returns
// false and sets *error to "field N (name): reason", e.g. "field 4 (address): '0xZZ' is not a
// number". The rowid field is parsed into access->rowId (it may be empty).
bool parseRow(QByteArrayView line, Access *access, QString *error);

char operationLetter(Operation operation);

// A field as RFC 4180 writes it: as it is, or in double quotes (inner quotes doubled) when it holds
// a comma, a double quote, a CR or an LF.
QByteArray quoteField(QByteArrayView field);

} // namespace memhist::csv
