// input.cpp — file, stdin, memory and Zstandard byte sources.
#include "arbiter/input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace arbiter {

const char* code_name(InputError::Code c) noexcept {
    switch (c) {
        case InputError::Code::cannot_open: return "cannot_open";
        case InputError::Code::read_failed: return "read_failed";
        case InputError::Code::corrupt_zstd: return "corrupt_zstd";
        case InputError::Code::truncated_zstd: return "truncated_zstd";
    }
    return "?";
}

std::string InputError::describe() const {
    std::string out = path + ": " + message;
    if (code == Code::corrupt_zstd || code == Code::truncated_zstd || code == Code::read_failed)
        out += " (at compressed byte " + std::to_string(offset) + ")";
    return out;
}

namespace {

constexpr unsigned char zstd_magic[4] = {0x28, 0xB5, 0x2F, 0xFD};

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
    }
    StreamSource(const StreamSource&) = delete;
    StreamSource& operator=(const StreamSource&) = delete;

    Expected<std::size_t, InputError> read(char* buffer, std::size_t size) override {
        if (failed_ || size == 0) return std::size_t{0};
        if (mode_ == Mode::undecided) {
            if (auto e = decide()) return fail(std::move(*e));
        }
        if (mode_ == Mode::plain) {
            if (in_pos_ < in_.size()) {
                const std::size_t n = std::min(size, in_.size() - in_pos_);
                std::memcpy(buffer, in_.data() + in_pos_, n);
                in_pos_ += n;
                return n;
            }
            auto got = raw_read(buffer, size);
            if (!got) return fail(std::move(got.error()));
            return *got;
        }
        return read_zstd(buffer, size);
    }

    [[nodiscard]] std::uint64_t consumed() const noexcept override { return consumed_; }
    [[nodiscard]] std::optional<std::uint64_t> total() const noexcept override { return total_; }
    [[nodiscard]] const std::string& name() const noexcept override { return name_; }

private:
    enum class Mode { undecided, plain, zstd };

    Unexpected<InputError> fail(InputError e) {
        failed_ = true;
        return Unexpected(std::move(e));
    }

    InputError error(InputError::Code code, std::uint64_t offset, std::string message) const {
        return InputError{code, name_, offset, std::move(message)};
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

    std::optional<InputError> decide() {
        using C = InputOptions::Compression;
        // Peek: gather at least 4 bytes (or all there is) for the magic number.
        in_.resize(options_.chunk_size);
        std::size_t have = 0;
        while (have < 4) {
            auto got = raw_read(in_.data() + have, in_.size() - have);
            if (!got) return std::move(got.error());
            if (*got == 0) break;
            have += *got;
        }
        in_.resize(have);
        in_pos_ = 0;
        const bool magic = have >= 4 && std::memcmp(in_.data(), zstd_magic, 4) == 0;
        const bool zstd = options_.compression == C::zstd || (options_.compression == C::detect && magic);
        mode_ = zstd ? Mode::zstd : Mode::plain;
        if (zstd) {
            dctx_ = ZSTD_createDCtx();
            if (!dctx_) return error(InputError::Code::corrupt_zstd, 0, "cannot create a zstd decoder");
        }
        return std::nullopt;
    }

    Expected<std::size_t, InputError> read_zstd(char* buffer, std::size_t size) {
        ZSTD_outBuffer out{buffer, size, 0};
        for (;;) {
            if (in_pos_ == in_.size()) {
                if (zstd_done_) return std::size_t{0};
                auto more = refill_in();
                if (!more) return fail(std::move(more.error()));
                if (!*more) {
                    if (frame_open_)
                        return fail(error(InputError::Code::truncated_zstd, consumed_,
                                          "the compressed data ends in the middle of a frame"));
                    zstd_done_ = true;
                    return std::size_t{0};
                }
            }
            ZSTD_inBuffer in{in_.data(), in_.size(), in_pos_};
            const std::size_t ret = ZSTD_decompressStream(dctx_, &out, &in);
            const std::uint64_t offset = consumed_ - (in_.size() - in.pos);
            in_pos_ = in.pos;
            if (ZSTD_isError(ret))
                return fail(error(InputError::Code::corrupt_zstd, offset,
                                  std::string("corrupt zstd data: ") + ZSTD_getErrorName(ret)));
            frame_open_ = ret != 0;
            if (out.pos > 0) return out.pos;
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
    ZSTD_DCtx* dctx_ = nullptr;
    bool raw_eof_ = false;
    bool failed_ = false;
    bool frame_open_ = false;
    bool zstd_done_ = false;
};

}  // namespace

Expected<std::unique_ptr<ByteSource>, InputError> open_input(const std::string& path, InputOptions options) {
    if (path == "-") {
        std::unique_ptr<ByteSource> src = std::make_unique<StreamSource>(0, false, "-", options, std::nullopt);
        return src;
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return Unexpected(
            InputError{InputError::Code::cannot_open, path, 0, std::string("cannot open: ") + std::strerror(errno)});
    struct stat st {};
    std::optional<std::uint64_t> total;
    if (::fstat(fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            ::close(fd);
            return Unexpected(InputError{InputError::Code::cannot_open, path, 0, "cannot open: is a directory"});
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
