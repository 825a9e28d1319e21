// input.hpp — byte sources for the readers: a file, standard input or memory, plain or
// compressed (Zstandard, gzip, bzip2: recognised by their first bytes, whatever the name), all
// read in fixed-size chunks so that memory stays flat however large the input. Errors are values:
// a file that cannot be opened or read, a corrupt compressed stream (with the compressed byte
// offset where decoding failed), or input that is not text (a ZIP archive, an executable, …).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "arbiter/expected.hpp"
#include "arbiter/names.hpp"

namespace arbiter {

struct InputError {
    enum class Code {
        cannot_open,      ///< the file does not exist or may not be read
        read_failed,      ///< the operating system reported an error while reading
        corrupt_zstd,     ///< the compressed stream is not valid Zstandard data
        truncated_zstd,   ///< the input ends in the middle of a compressed frame
        corrupt_gzip,     ///< the compressed stream is not valid gzip data
        truncated_gzip,   ///< the input ends in the middle of a gzip member
        corrupt_bzip2,    ///< the compressed stream is not valid bzip2 data
        truncated_bzip2,  ///< the input ends in the middle of a bzip2 stream
        not_text,         ///< an archive or binary file (ZIP, xz, ELF, NUL bytes…): the message says what to do
    };
    Code code;
    std::string path;  ///< the name given to open_input ("-" for standard input)
    /// Byte offset where the problem was found: in the compressed input for the corrupt_* and
    /// truncated_* codes (for Zstandard, the start of the block that failed to decode), in the
    /// decompressed text for not_text.
    std::uint64_t offset;
    std::string message;

    /// One line: "games.pgn.zst: corrupt zstd data at byte 1234: …".
    [[nodiscard]] std::string describe() const;
};

/// Stable name of an error code, e.g. "corrupt_zstd".
template <>
struct EnumNames<InputError::Code> {
    static constexpr auto names =
        std::to_array<const char*>({"cannot_open", "read_failed", "corrupt_zstd", "truncated_zstd", "corrupt_gzip",
                                    "truncated_gzip", "corrupt_bzip2", "truncated_bzip2", "not_text"});
};
static_assert(enum_count<InputError::Code> == std::size_t(InputError::Code::not_text) + 1);
constexpr const char* code_name(InputError::Code c) noexcept { return enum_name(c); }

/// A stream of bytes read in chunks. Not thread-safe; one reader at a time.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    /// Reads up to `size` bytes into `buffer`. Returns the number of bytes read; 0 only at the end
    /// of the input. Errors: InputError (after an error the source stays at its end).
    virtual Expected<std::size_t, InputError> read(char* buffer, std::size_t size) = 0;
    /// The next bytes of the input, when the source holds them in memory and can lend them: a
    /// reader reads them in place instead of copying them out. They count as read (the next
    /// read() goes on after them) and stay valid until the next read() or the source's end.
    /// Empty when the source does not lend (the default).
    virtual std::string_view lend() { return {}; }
    /// Bytes consumed from the underlying file so far (compressed bytes for `.zst`): for progress.
    [[nodiscard]] virtual std::uint64_t consumed() const noexcept = 0;
    /// Size of the underlying file when known (a regular file), for progress and ETA.
    [[nodiscard]] virtual std::optional<std::uint64_t> total() const noexcept = 0;
    /// The name the source was opened with.
    [[nodiscard]] virtual const std::string& name() const noexcept = 0;
};

struct InputOptions {
    /// How the bytes are encoded. `detect` recognises Zstandard (also a leading skippable frame,
    /// as pzstd writes), gzip and bzip2 by their magic numbers (so a compressed file of any name
    /// or a compressed stream on stdin both work), refuses ZIP, xz, 7-Zip, RAR, LZ4, UTF-16 and
    /// executables with a hint (not_text), and refuses text with a NUL byte in its first 8 KiB
    /// (binary data). `plain` passes every byte through unchecked; the others always decompress.
    enum class Compression { detect, plain, zstd, gzip, bzip2 };
    Compression compression = Compression::detect;
    /// Size of each read from the operating system.
    std::size_t chunk_size = 1 << 18;
    /// A file only (open_input): the offset of the first raw byte read, and at most how many raw
    /// bytes are read from there (none: to the end) — a part of a file, such as a run of whole
    /// Zstandard frames. Error offsets stay those of the whole file.
    std::uint64_t start = 0;
    std::optional<std::uint64_t> length{};
};

/// Opens a file, or standard input for "-". Errors: InputError (cannot_open).
Expected<std::unique_ptr<ByteSource>, InputError> open_input(const std::string& path, InputOptions options = {});

/// A source over bytes in memory (not copied: `data` must outlive the source). With
/// Compression::detect or zstd, Zstandard data is decompressed as it is read.
std::unique_ptr<ByteSource> memory_input(std::string_view data, InputOptions options = {},
                                         std::string name = "<memory>");

}  // namespace arbiter
