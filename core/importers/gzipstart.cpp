// SPDX-License-Identifier: MIT
#include "core/importers/gzipstart.h"

#include <zlib.h>

namespace memhist {

QByteArray gunzipStart(QByteArrayView compressed, qsizetype maxBytes)
{
    z_stream stream {};
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) // 16: a gzip header, not a raw zlib one
        return {};
    QByteArray out(maxBytes, Qt::Uninitialized);
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(compressed.data()));
    stream.avail_in = uInt(compressed.size());
    stream.next_out = reinterpret_cast<Bytef *>(out.data());
    stream.avail_out = uInt(out.size());
    inflate(&stream, Z_SYNC_FLUSH);
    out.truncate(out.size() - qsizetype(stream.avail_out));
    inflateEnd(&stream);
    return out;
}

} // namespace memhist
