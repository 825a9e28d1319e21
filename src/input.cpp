// input.cpp — file, stdin and memory byte sources, decompressing Zstandard, gzip and bzip2 (the
// decoders: decoders.cpp) and refusing other binary formats, all recognised by their first bytes.
#include "arbiter/input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <vector>

#include "decoders.hpp"

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

bool starts_with(std::string_view in, std::initializer_list<unsigned char> magic) {
    if (in.size() < magic.size()) return false;
    std::size_t i = 0;
    for (unsigned char m : magic)
        if (static_cast<unsigned char>(in[i++]) != m) return false;
    return true;
}

// A format recognised by its magic number that this reader does not decode, with the hint.
const char* foreign_format(std::string_view in) {
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
class StreamSource final : public ByteSource, detail::RawInput {
public:
    StreamSource(int fd, bool owns_fd, std::string name, InputOptions options, std::optional<std::uint64_t> total)
        : fd_(fd), owns_fd_(owns_fd), name_(std::move(name)), options_(options), total_(total) {
        if (options_.chunk_size < 64) options_.chunk_size = 64;
        consumed_ = options_.start;  // offsets are those of the whole file
        if (options_.length) raw_end_ = options_.start + *options_.length;
    }
    StreamSource(std::string_view memory, std::string name, InputOptions options)
        : memory_(memory), name_(std::move(name)), options_(options), total_(memory.size()) {
        if (options_.chunk_size < 64) options_.chunk_size = 64;
    }
    ~StreamSource() override {
        decoder_.reset();
        if (owns_fd_ && fd_ >= 0) ::close(fd_);
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
            case Mode::decoded: got = decoder_->read(buffer, size); break;
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
    enum class Mode { undecided, plain, decoded };

    Unexpected<InputError> fail(InputError e) {
        failed_ = true;
        return Unexpected(std::move(e));
    }

    // RawInput, for the decoders.
    [[nodiscard]] InputError error(InputError::Code code, std::uint64_t offset, std::string message) const override {
        return InputError{code, name_, offset, std::move(message)};
    }
    [[nodiscard]] std::uint64_t offset(std::size_t k = 0) const noexcept override {
        return consumed_ - (in.size() - pos) + k;
    }
    Expected<bool, InputError> ready() override {
        if (pos < in.size()) return true;
        return refill_in();
    }

    // Reads raw bytes from the file or memory; 0 at the end.
    Expected<std::size_t, InputError> raw_read(char* buffer, std::size_t size) {
        if (raw_eof_) return std::size_t{0};
        std::size_t n = 0;
        if (raw_end_) size = static_cast<std::size_t>(std::min<std::uint64_t>(size, *raw_end_ - consumed_));
        if (size == 0) {
            raw_eof_ = true;
            return n;
        }
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

    // Fills `in` with the next raw chunk (it is empty or fully used). Returns false at the end.
    Expected<bool, InputError> refill_in() {
        in.resize(options_.chunk_size);
        auto got = raw_read(in.data(), in.size());
        if (!got) return Unexpected(std::move(got.error()));
        in.resize(*got);
        pos = 0;
        return *got > 0;
    }

    Expected<std::size_t, InputError> read_plain(char* buffer, std::size_t size) {
        if (pos < in.size()) {
            const std::size_t n = std::min(size, in.size() - pos);
            std::memcpy(buffer, in.data() + pos, n);
            pos += n;
            return n;
        }
        return raw_read(buffer, size);
    }

    std::optional<InputError> decide() {
        // Peek: gather at least 6 bytes (or all there is) for the magic number.
        in.resize(options_.chunk_size);
        std::size_t have = 0;
        while (have < 6) {
            auto got = raw_read(in.data() + have, in.size() - have);
            if (!got) return std::move(got.error());
            if (*got == 0) break;
            have += *got;
        }
        in.resize(have);
        pos = 0;
        Compression c = options_.compression;
        if (c == Compression::detect) {
            sniff_ = true;
            const std::string_view head(in.data(), in.size());
            const bool skippable = have >= 4 && (static_cast<unsigned char>(in[0]) & 0xF0) == 0x50 &&
                                   starts_with(std::string_view(in.data() + 1, 3), {0x2A, 0x4D, 0x18});
            if (starts_with(head, {0x28, 0xB5, 0x2F, 0xFD}) || skippable)
                c = Compression::zstd;
            else if (starts_with(head, {0x1F, 0x8B}))
                c = Compression::gzip;
            else if (starts_with(head, {'B', 'Z', 'h'}) && have >= 4 && in[3] >= '1' && in[3] <= '9')
                c = Compression::bzip2;
            else if (const char* hint = foreign_format(head))
                return error(InputError::Code::not_text, 0, hint);
            else
                c = Compression::plain;
        }
        switch (c) {
            case Compression::detect:
            case Compression::plain: mode_ = Mode::plain; break;
            case Compression::zstd:
            case Compression::gzip:
            case Compression::bzip2: {
                auto d = detail::make_decoder(c, *this);
                if (!d) return std::move(d.error());
                decoder_ = std::move(*d);
                mode_ = Mode::decoded;
                break;
            }
        }
        return std::nullopt;
    }

    int fd_ = -1;
    bool owns_fd_ = false;
    std::string_view memory_;
    std::size_t memory_pos_ = 0;
    std::string name_;
    InputOptions options_;
    std::optional<std::uint64_t> total_;
    Mode mode_ = Mode::undecided;
    std::uint64_t consumed_ = 0;
    std::optional<std::uint64_t> raw_end_;  // the offset where a part of a file ends
    std::uint64_t produced_ = 0;
    bool sniff_ = false;
    bool raw_eof_ = false;
    bool failed_ = false;
    std::unique_ptr<detail::Decoder> decoder_;  // Mode::decoded
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
    if (options.start > 0 && ::lseek(fd, static_cast<off_t>(options.start), SEEK_SET) < 0) {
        const int err = errno;
        ::close(fd);
        return Unexpected(InputError{
            InputError::Code::cannot_open, path, options.start,
            std::string("cannot open at byte ") + std::to_string(options.start) + ": " + std::strerror(err)});
    }
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(fd, static_cast<off_t>(options.start), 0, POSIX_FADV_SEQUENTIAL);
#endif
    std::unique_ptr<ByteSource> src = std::make_unique<StreamSource>(fd, true, path, options, total);
    return src;
}

std::unique_ptr<ByteSource> memory_input(std::string_view data, InputOptions options, std::string name) {
    return std::make_unique<StreamSource>(data, std::move(name), options);
}

}  // namespace arbiter
