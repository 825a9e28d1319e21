// decoders_none.cpp — the decoders of a build without the compression libraries (the WebAssembly
// build links this instead of decoders.cpp): compressed input is refused, naming its format.
#include "decoders.hpp"

namespace arbiter::detail {

Expected<std::unique_ptr<Decoder>, InputError> make_decoder(InputOptions::Compression c, RawInput& raw) {
    const char* format = c == InputOptions::Compression::zstd   ? "Zstandard"
                         : c == InputOptions::Compression::gzip ? "gzip"
                                                                : "bzip2";
    return Unexpected(
        raw.error(InputError::Code::not_text, 0,
                  std::string("looks like ") + format +
                      "-compressed data, which this build of arbiter does not read; decompress it first"));
}

}  // namespace arbiter::detail
