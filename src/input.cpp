// input.cpp — file, stdin and memory byte sources, decompressing Zstandard, gzip and bzip2 and
// refusing other binary formats, all recognised by their first bytes.
#include "arbiter/input.hpp"

#include <bzlib.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstring>
#include <vector>

namespace arbiter {

std::string InputError::describe() const {
    std::string out = path + ": " + message;
    switch (code) {
        case Code::cannot_open: break;
        case Code::not_text: out += " (at byte " + std::to_string(offset) + ")"; break;
        default: out += " (at compressed byte " + std::to_string(offset) + ")";
    }
    return out;
}

namespace {

using Compression = InputOptions::Compression;

// How many leading bytes of the text are checked for NUL bytes (binary data).
constexpr std::size_t sniff_bytes = 8192;

bool starts_with(const std::vector<char>& in, std::initializer_list<unsigned char> magic) {
    if (in.size() < magic.size()) return false;
    std::size_t i = 0;
    for (unsigned char m : magic)
        if (static_cast<unsigned char>(in[i++]) != m) return false;
    return true;
}

// A format recognised by its magic number that this reader does not decode, with the hint.
const char* foreign_format(const std::vector<char>& in) {
    if (starts_with(in, {'P', 'K', 3, 4}) || starts_with(in, {'P', 'K', 5, 6}) || starts_with(in, {'P', 'K', 7, 8}))
        return "looks like a ZIP archive; unzip it first";
    if (starts_with(in, {0xFD, '7', 'z', 'X', 'Z', 0}))
        return "looks like xz-compressed data; decompress it first (xz -d)";
    if (starts_with(in, {'7', 'z', 0xBC, 0xAF, 0x27, 0x1C})) return "looks like a 7-Zip archive; extract it first";
    if (starts_with(in, {'R', 'a', 'r', '!', 0x1A, 7})) return "looks like a RAR archive; extract it first";
    if (starts_with(in, {0x04, 0x22, 0x4D, 0x18})) return "looks like LZ4-compressed data; decompress it first";
    if (starts_with(in, {0x7F, 'E', 'L', 'F'})) return "looks like an executable (ELF), not PGN text";
    if (starts_with(in, {0xFF, 0xFE}) || starts_with(in, {0xFE, 0xFF}))
        return "looks like UTF-16 text; convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)";
    return nullptr;
}

// One class serves every source: the raw bytes come from a file descriptor or from memory, and
// are passed through or decompressed. The first read peeks at the magic number when asked to
// detect the compression.
class StreamSource final : public ByteSource {
public:
    StreamSource(int fd, bool owns_fd, std::string name, InputOptions options, std::optional<std::uint64_t> total)
        : fd_(fd), owns_fd_(owns_fd), name_(std::move(name)), options_(options), total_(total) {
        if (options_.chunk_size < 64) options_.chunk_size = 64;
    }
    StreamSource(std::string_view memory, std::string name, InputOptions options)
        : memory_(memory), name_(std::move(name)), options_(options), total_(memory.size()) {
        if (options_.chunk_size < 64) options_.chunk_size = 64;
    }
    ~StreamSource() override {
        if (owns_fd_ && fd_ >= 0) ::close(fd_);
        if (dctx_) ZSTD_freeDCtx(dctx_);
        end_gzip();
        end_bzip2();
    }
    StreamSource(const StreamSource&) = delete;
    StreamSource& operator=(const StreamSource&) = delete;

    Expected<std::size_t, InputError> read(char* buffer, std::size_t size) override {
        if (failed_ || size == 0) return std::size_t{0};
        if (mode_ == Mode::undecided) {
            if (auto e = decide()) return fail(std::move(*e));
        }
        Expected<std::size_t, InputError> got = std::size_t{0};
        switch (mode_) {
            case Mode::undecided:
            case Mode::plain: got = read_plain(buffer, size); break;
            case Mode::zstd: got = read_zstd(buffer, size); break;
            case Mode::gzip: got = read_gzip(buffer, size); break;
            case Mode::bzip2: got = read_bzip2(buffer, size); break;
        }
        if (!got) return fail(std::move(got.error()));
        if (sniff_ && produced_ < sniff_bytes) {
            const std::size_t n = std::min<std::size_t>(*got, sniff_bytes - produced_);
            if (const void* nul = std::memchr(buffer, '\0', n)) {
                const auto at = produced_ + static_cast<std::uint64_t>(static_cast<const char*>(nul) - buffer);
                return fail(error(InputError::Code::not_text, at,
                                  std::string("contains a NUL byte: looks like binary data, not PGN text") +
                                      (mode_ == Mode::plain ? "" : " (after decompression)")));
            }
        }
        produced_ += *got;
        return got;
    }

    [[nodiscard]] std::uint64_t consumed() const noexcept override { return consumed_; }
    [[nodiscard]] std::optional<std::uint64_t> total() const noexcept override { return total_; }
    [[nodiscard]] const std::string& name() const noexcept override { return name_; }

private:
    enum class Mode { undecided, plain, zstd, gzip, bzip2 };

    Unexpected<InputError> fail(InputError e) {
        failed_ = true;
        return Unexpected(std::move(e));
    }

    InputError error(InputError::Code code, std::uint64_t offset, std::string message) const {
        return InputError{code, name_, offset, std::move(message)};
    }

    // Absolute offset in the raw input of in_[in_pos_ + k].
    [[nodiscard]] std::uint64_t raw_offset(std::size_t k = 0) const noexcept {
        return consumed_ - (in_.size() - in_pos_) + k;
    }

    // Reads raw bytes from the file or memory; 0 at the end.
    Expected<std::size_t, InputError> raw_read(char* buffer, std::size_t size) {
        if (raw_eof_) return std::size_t{0};
        std::size_t n = 0;
        if (fd_ < 0) {
            n = std::min(size, memory_.size() - memory_pos_);
            std::memcpy(buffer, memory_.data() + memory_pos_, n);
            memory_pos_ += n;
        } else {
            for (;;) {
                const ssize_t r = ::read(fd_, buffer, size);
                if (r < 0 && errno == EINTR) continue;
                if (r < 0)
                    return Unexpected(error(InputError::Code::read_failed, consumed_,
                                            std::string("read failed: ") + std::strerror(errno)));
                n = static_cast<std::size_t>(r);
                break;
            }
        }
        if (n == 0) raw_eof_ = true;
        consumed_ += n;
        return n;
    }

    // Fills in_ with the next raw chunk (in_ is empty or fully used). Returns false at the end.
    Expected<bool, InputError> refill_in() {
        in_.resize(options_.chunk_size);
        auto got = raw_read(in_.data(), in_.size());
        if (!got) return Unexpected(std::move(got.error()));
        in_.resize(*got);
        in_pos_ = 0;
        return *got > 0;
    }

    Expected<std::size_t, InputError> read_plain(char* buffer, std::size_t size) {
        if (in_pos_ < in_.size()) {
            const std::size_t n = std::min(size, in_.size() - in_pos_);
            std::memcpy(buffer, in_.data() + in_pos_, n);
            in_pos_ += n;
            return n;
        }
        return raw_read(buffer, size);
    }

    std::optional<InputError> decide() {
        // Peek: gather at least 6 bytes (or all there is) for the magic number.
        in_.resize(options_.chunk_size);
        std::size_t have = 0;
        while (have < 6) {
            auto got = raw_read(in_.data() + have, in_.size() - have);
            if (!got) return std::move(got.error());
            if (*got == 0) break;
            have += *got;
        }
        in_.resize(have);
        in_pos_ = 0;
        Compression c = options_.compression;
        if (c == Compression::detect) {
            sniff_ = true;
            const bool skippable = have >= 4 && (static_cast<unsigned char>(in_[0]) & 0xF0) == 0x50 &&
                                   starts_with(std::vector<char>(in_.begin() + 1, in_.begin() + 4), {0x2A, 0x4D, 0x18});
            if (starts_with(in_, {0x28, 0xB5, 0x2F, 0xFD}) || skippable)
                c = Compression::zstd;
            else if (starts_with(in_, {0x1F, 0x8B}))
                c = Compression::gzip;
            else if (starts_with(in_, {'B', 'Z', 'h'}) && have >= 4 && in_[3] >= '1' && in_[3] <= '9')
                c = Compression::bzip2;
            else if (const char* hint = foreign_format(in_))
                return error(InputError::Code::not_text, 0, hint);
            else
                c = Compression::plain;
        }
        switch (c) {
            case Compression::detect:
            case Compression::plain: mode_ = Mode::plain; break;
            case Compression::zstd:
                mode_ = Mode::zstd;
                dctx_ = ZSTD_createDCtx();
                if (!dctx_) return error(InputError::Code::corrupt_zstd, 0, "cannot create a zstd decoder");
                // Frames written with --long (windows up to 2 GiB) are read as `zstd -d --long=31` does.
                ZSTD_DCtx_setParameter(dctx_, ZSTD_d_windowLogMax, 31);
                break;
            case Compression::gzip: mode_ = Mode::gzip; break;
            case Compression::bzip2: mode_ = Mode::bzip2; break;
        }
        return std::nullopt;
    }

    // Makes input available: false at the end of the raw input.
    Expected<bool, InputError> input_ready() {
        if (in_pos_ < in_.size()) return true;
        return refill_in();
    }

    // Zstandard. The input is given in the pieces the decoder asks for (a block at a time), so
    // an error is reported at the compressed offset of the block that failed.
    Expected<std::size_t, InputError> read_zstd(char* buffer, std::size_t size) {
        ZSTD_outBuffer out{buffer, size, 0};
        for (;;) {
            auto ready = input_ready();
            if (!ready) return Unexpected(std::move(ready.error()));
            const bool eof = !*ready;
            if (eof && !frame_open_) return std::size_t{0};
            std::size_t n = 0;
            if (!eof) {
                if (!frame_open_ && unit_left_ == 0) frame_start_ = raw_offset();
                if (unit_left_ == 0) {
                    unit_start_ = raw_offset();
                    unit_left_ = std::max<std::size_t>(hint_, 1);
                }
                n = std::min(unit_left_, in_.size() - in_pos_);
            }
            ZSTD_inBuffer in{in_.data() + in_pos_, n, 0};
            const std::size_t ret = ZSTD_decompressStream(dctx_, &out, &in);
            if (ZSTD_isError(ret)) {
                const auto code = ZSTD_getErrorCode(ret);
                std::string why = std::string("corrupt zstd data: ") + ZSTD_getErrorName(ret);
                if (code == ZSTD_error_checksum_wrong)
                    why = "corrupt zstd data: the checksum of the frame starting at compressed byte " +
                          std::to_string(frame_start_) + " does not match (damaged somewhere in that frame)";
                else
                    why += " (in the block starting here)";
                if (code == ZSTD_error_frameParameter_windowTooLarge)
                    why = "the zstd frame needs a window larger than 2 GiB (more than `zstd -d --long=31` reads)";
                return Unexpected(error(InputError::Code::corrupt_zstd, unit_start_, why));
            }
            in_pos_ += in.pos;
            unit_left_ -= in.pos;
            hint_ = ret;
            frame_open_ = ret != 0;
            if (out.pos > 0) return out.pos;
            if (eof) {
                if (frame_open_)
                    return Unexpected(error(InputError::Code::truncated_zstd, consumed_,
                                            "the compressed data ends in the middle of a frame"));
                return std::size_t{0};
            }
        }
    }

    void end_gzip() {
        if (gzip_open_) inflateEnd(&zs_);
        gzip_open_ = false;
    }

    // gzip, every member of a multi-member file in turn (as `gzip -d` reads them).
    Expected<std::size_t, InputError> read_gzip(char* buffer, std::size_t size) {
        const auto chunk = static_cast<uInt>(std::min<std::size_t>(size, UINT_MAX));
        for (;;) {
            auto ready = input_ready();
            if (!ready) return Unexpected(std::move(ready.error()));
            const bool eof = !*ready;
            if (eof && !(gzip_open_ && member_started_)) return std::size_t{0};
            if (!gzip_open_) {
                zs_ = z_stream{};
                if (inflateInit2(&zs_, 15 + 16) != Z_OK)
                    return Unexpected(
                        error(InputError::Code::corrupt_gzip, raw_offset(), "cannot create a gzip decoder"));
                gzip_open_ = true;
                member_started_ = false;
            }
            const auto avail = static_cast<uInt>(std::min<std::size_t>(in_.size() - in_pos_, UINT_MAX));
            zs_.next_in = reinterpret_cast<Bytef*>(in_.data() + in_pos_);
            zs_.avail_in = avail;
            zs_.next_out = reinterpret_cast<Bytef*>(buffer);
            zs_.avail_out = chunk;
            const int rc = inflate(&zs_, Z_NO_FLUSH);
            const std::size_t used = avail - zs_.avail_in;
            if (used > 0) member_started_ = true;
            if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
                const std::string why = zs_.msg ? zs_.msg : "inflate failed";
                return Unexpected(error(InputError::Code::corrupt_gzip, raw_offset(used), "corrupt gzip data: " + why));
            }
            in_pos_ += used;
            if (rc == Z_STREAM_END) end_gzip();
            const std::size_t produced = chunk - zs_.avail_out;
            if (produced > 0) return produced;
            if (eof && gzip_open_)
                return Unexpected(error(InputError::Code::truncated_gzip, consumed_,
                                        "the compressed data ends in the middle of a gzip member"));
        }
    }

    void end_bzip2() {
        if (bzip2_open_) BZ2_bzDecompressEnd(&bz_);
        bzip2_open_ = false;
    }

    // bzip2, every stream of a concatenated file in turn.
    Expected<std::size_t, InputError> read_bzip2(char* buffer, std::size_t size) {
        const auto chunk = static_cast<unsigned>(std::min<std::size_t>(size, UINT_MAX));
        for (;;) {
            auto ready = input_ready();
            if (!ready) return Unexpected(std::move(ready.error()));
            const bool eof = !*ready;
            if (eof && !(bzip2_open_ && member_started_)) return std::size_t{0};
            if (!bzip2_open_) {
                bz_ = bz_stream{};
                if (BZ2_bzDecompressInit(&bz_, 0, 0) != BZ_OK)
                    return Unexpected(
                        error(InputError::Code::corrupt_bzip2, raw_offset(), "cannot create a bzip2 decoder"));
                bzip2_open_ = true;
                member_started_ = false;
            }
            const auto avail = static_cast<unsigned>(std::min<std::size_t>(in_.size() - in_pos_, UINT_MAX));
            bz_.next_in = in_.data() + in_pos_;
            bz_.avail_in = avail;
            bz_.next_out = buffer;
            bz_.avail_out = chunk;
            const int rc = BZ2_bzDecompress(&bz_);
            const std::size_t used = avail - bz_.avail_in;
            if (used > 0) member_started_ = true;
            if (rc != BZ_OK && rc != BZ_STREAM_END) {
                const char* why = rc == BZ_DATA_ERROR_MAGIC ? "not bzip2 data"
                                  : rc == BZ_MEM_ERROR      ? "out of memory"
                                                            : "the data is damaged";
                return Unexpected(error(InputError::Code::corrupt_bzip2, raw_offset(used),
                                        std::string("corrupt bzip2 data: ") + why));
            }
            in_pos_ += used;
            if (rc == BZ_STREAM_END) end_bzip2();
            const std::size_t produced = chunk - bz_.avail_out;
            if (produced > 0) return produced;
            if (eof && bzip2_open_)
                return Unexpected(error(InputError::Code::truncated_bzip2, consumed_,
                                        "the compressed data ends in the middle of a bzip2 stream"));
        }
    }

    int fd_ = -1;
    bool owns_fd_ = false;
    std::string_view memory_;
    std::size_t memory_pos_ = 0;
    std::string name_;
    InputOptions options_;
    std::optional<std::uint64_t> total_;
    Mode mode_ = Mode::undecided;
    std::vector<char> in_;
    std::size_t in_pos_ = 0;
    std::uint64_t consumed_ = 0;
    std::uint64_t produced_ = 0;
    bool sniff_ = false;
    bool raw_eof_ = false;
    bool failed_ = false;
    // Zstandard
    ZSTD_DCtx* dctx_ = nullptr;
    bool frame_open_ = false;
    std::size_t hint_ = 1;
    std::size_t unit_left_ = 0;
    std::uint64_t unit_start_ = 0;
    std::uint64_t frame_start_ = 0;
    // gzip and bzip2
    z_stream zs_{};
    bool gzip_open_ = false;
    bz_stream bz_{};
    bool bzip2_open_ = false;
    bool member_started_ = false;
};

}  // namespace

Expected<std::unique_ptr<ByteSource>, InputError> open_input(const std::string& path, InputOptions options) {
    if (path == "-") {
        std::unique_ptr<ByteSource> src = std::make_unique<StreamSource>(0, false, "-", options, std::nullopt);
        return src;
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        std::string why = std::string("cannot open: ") + std::strerror(err);
        if (err == ELOOP) why = "cannot open: too many levels of symbolic links (a symlink loop?)";
        return Unexpected(InputError{InputError::Code::cannot_open, path, 0, why});
    }
    struct stat st {};
    std::optional<std::uint64_t> total;
    if (::fstat(fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            ::close(fd);
            return Unexpected(
                InputError{InputError::Code::cannot_open, path, 0, "cannot open: is a directory, not a file"});
        }
        if (S_ISREG(st.st_mode)) total = static_cast<std::uint64_t>(st.st_size);
    }
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    std::unique_ptr<ByteSource> src = std::make_unique<StreamSource>(fd, true, path, options, total);
    return src;
}

std::unique_ptr<ByteSource> memory_input(std::string_view data, InputOptions options, std::string name) {
    return std::make_unique<StreamSource>(data, std::move(name), options);
}

}  // namespace arbiter
