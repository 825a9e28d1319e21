// audit_task.cpp — the distributed audit's tasks: planning an input without reading it, and
// auditing the part of it a task owns.
#include "audit/audit_task.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>

#include "arbiter/pgn.hpp"

namespace arbiter::face {

namespace {

// A file read by pread at chosen offsets (headers only), closed at the end.
class HeaderFile {
public:
    explicit HeaderFile(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
#ifdef POSIX_FADV_RANDOM
        if (fd_ >= 0) ::posix_fadvise(fd_, 0, 0, POSIX_FADV_RANDOM);  // a few bytes here and there
#endif
    }
    ~HeaderFile() {
        if (fd_ >= 0) ::close(fd_);
    }
    HeaderFile(const HeaderFile&) = delete;
    HeaderFile& operator=(const HeaderFile&) = delete;
    [[nodiscard]] bool open() const { return fd_ >= 0; }
    [[nodiscard]] std::optional<std::uint64_t> size() const {
        struct stat st {};
        if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
        return static_cast<std::uint64_t>(st.st_size);
    }
    // Exactly `n` bytes at `at`, or false.
    bool read(std::uint64_t at, unsigned char* out, std::size_t n) const {
        std::size_t got = 0;
        while (got < n) {
            const ssize_t r = ::pread(fd_, out + got, n - got, static_cast<off_t>(at + got));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) return false;
            got += static_cast<std::size_t>(r);
        }
        return true;
    }

private:
    int fd_;
};

std::uint32_t le32(const unsigned char* p) {
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}

constexpr std::uint32_t zstd_magic = 0xFD2FB528U;
constexpr std::uint32_t skippable_magic = 0x184D2A50U;  // the low 4 bits are free
constexpr std::uint32_t skippable_mask = 0xFFFFFFF0U;

// The end of the Zstandard frame that starts at `at` (its blocks walked by their headers), or
// nullopt where the data is not a valid frame.
std::optional<std::uint64_t> zstd_frame_end(const HeaderFile& f, std::uint64_t at, std::uint64_t size) {
    unsigned char h[5];
    if (!f.read(at, h, 5) || le32(h) != zstd_magic) return std::nullopt;
    const unsigned fhd = h[4];
    const unsigned fcs_flag = fhd >> 6, single_segment = (fhd >> 5) & 1U, checksum = (fhd >> 2) & 1U;
    if (fhd & 0x08U) return std::nullopt;  // reserved bit
    static constexpr std::array<unsigned, 4> dict_id_bytes{0, 1, 2, 4};
    const unsigned fcs_bytes = fcs_flag == 0 ? single_segment : 1U << fcs_flag;
    std::uint64_t pos = at + 5 + (single_segment ? 0 : 1) + dict_id_bytes[fhd & 3U] + fcs_bytes;
    for (;;) {
        unsigned char b[3];
        if (pos + 3 > size || !f.read(pos, b, 3)) return std::nullopt;
        const std::uint32_t block = std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16;
        const unsigned type = (block >> 1) & 3U;
        if (type == 3) return std::nullopt;         // reserved block type
        pos += 3 + (type == 1 ? 1 : (block >> 3));  // an RLE block holds one byte
        if (block & 1U) break;                      // the last block
    }
    if (checksum) pos += 4;
    if (pos > size) return std::nullopt;
    return pos;
}

std::string compression_of(const unsigned char* p, std::size_t n) {
    if (n >= 4 && (le32(p) == zstd_magic || (le32(p) & skippable_mask) == skippable_magic)) return "zstd";
    if (n >= 2 && p[0] == 0x1F && p[1] == 0x8B) return "gzip";
    if (n >= 4 && p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' && p[3] >= '1' && p[3] <= '9') return "bzip2";
    return "plain";
}

// How many tasks `size` bytes make at about `task_bytes` each (at least one), and where the k-th
// of them would start if the bytes were shared evenly: equal tasks end together, where a last
// short task would leave the other workers idle while the long ones finish.
std::uint64_t task_count(std::uint64_t size, std::uint64_t task_bytes) {
    return std::max<std::uint64_t>(1, size / task_bytes + (size % task_bytes != 0));
}

std::uint64_t even_cut(std::uint64_t size, std::uint64_t tasks, std::uint64_t k) {
    return static_cast<std::uint64_t>(static_cast<unsigned __int128>(size) * k / tasks);
}

// Groups the units [starts[k], starts[k + 1]) (the last ends at `size`) into about
// size / task_bytes spans of nearly equal size: each cut at the unit start nearest to an even cut.
std::vector<std::pair<std::uint64_t, std::uint64_t>> group(const std::vector<std::uint64_t>& starts, std::uint64_t size,
                                                           std::uint64_t task_bytes) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
    const std::uint64_t tasks = task_count(size, task_bytes);
    std::uint64_t begin = 0;
    std::size_t next = 1;  // the first unit start not used yet
    for (std::uint64_t k = 1; k < tasks && next < starts.size(); ++k) {
        const std::uint64_t target = even_cut(size, tasks, k);
        while (next < starts.size() && starts[next] < target) ++next;
        std::size_t pick = next;
        if (pick == starts.size() || (starts[pick - 1] > begin && target - starts[pick - 1] < starts[pick] - target))
            --pick;
        if (starts[pick] <= begin) continue;
        spans.emplace_back(begin, starts[pick]);
        begin = starts[pick];
        next = pick + 1;
    }
    spans.emplace_back(begin, size);
    return spans;
}

}  // namespace

std::vector<std::uint64_t> zstd_frame_starts(const std::string& path, std::uint64_t size) {
    HeaderFile f(path);
    std::vector<std::uint64_t> starts;
    if (!f.open()) return {0};
    std::uint64_t at = 0;
    while (at < size) {
        starts.push_back(at);
        unsigned char h[8];
        if (at + 8 <= size && f.read(at, h, 8) && (le32(h) & skippable_mask) == skippable_magic) {
            // pzstd's: four bytes giving the size of the frame that follows.
            const std::uint64_t next = at + 8 + le32(h + 4);
            std::optional<std::uint64_t> end;
            unsigned char s[4];
            if (le32(h + 4) == 4 && next + 4 <= size && f.read(at + 8, s, 4) && next + le32(s) <= size)
                end = next + le32(s);
            else
                end = next <= size ? zstd_frame_end(f, next, size) : std::nullopt;
            if (!end) break;  // the rest is one span: its task reports what is wrong, as the CLI does
            at = *end;
            continue;
        }
        const auto end = zstd_frame_end(f, at, size);
        if (!end) break;
        at = *end;
    }
    if (starts.empty()) starts.push_back(0);
    return starts;
}

InputPlan plan_input(const std::string& path, std::uint64_t task_bytes, std::uint64_t frame_task_bytes) {
    InputPlan plan;
    task_bytes = std::max<std::uint64_t>(task_bytes, 1);
    if (frame_task_bytes == 0) frame_task_bytes = task_bytes;
    HeaderFile f(path);
    const auto size = f.open() ? f.size() : std::nullopt;
    if (!size) {
        plan.spans.emplace_back(0, 0);  // not a regular file the client can open: the worker says why
        return plan;
    }
    plan.size = *size;
    unsigned char head[8] = {};
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(plan.size, sizeof head));
    if (n > 0 && !f.read(0, head, n)) {
        plan.spans.emplace_back(0, plan.size);
        return plan;
    }
    plan.compression = compression_of(head, n);
    if (plan.compression == "plain") {
        plan.kind = TaskKind::range;
        const std::uint64_t tasks = task_count(plan.size, task_bytes);
        for (std::uint64_t k = 0; k < tasks; ++k)
            plan.spans.emplace_back(even_cut(plan.size, tasks, k), even_cut(plan.size, tasks, k + 1));
    } else if (plan.compression == "zstd") {
        const auto starts = zstd_frame_starts(path, plan.size);
        plan.kind = starts.size() > 1 ? TaskKind::frames : TaskKind::whole;
        plan.spans = group(starts, plan.size, frame_task_bytes);
    } else {
        plan.spans.emplace_back(0, plan.size);
    }
    return plan;
}

namespace {

// The text a task owns, read from its part of the input and handed out in pieces of whole games.
class TaskText {
public:
    TaskText(const TaskSpec& spec, std::size_t piece_bytes) : spec_(spec), piece_bytes_(piece_bytes) {
        const bool at_start = spec.begin == 0 || spec.kind == TaskKind::whole;
        started_ = at_start;
        InputOptions o;
        if (spec.kind == TaskKind::range) {
            // The file's first bytes are checked as the CLI checks them (not text, NUL bytes).
            o.compression = at_start ? InputOptions::Compression::detect : InputOptions::Compression::plain;
            o.start = spec.begin;
            end_ = spec.end - spec.begin;
        } else if (spec.kind == TaskKind::frames) {
            o.compression = at_start ? InputOptions::Compression::detect : InputOptions::Compression::zstd;
            o.start = spec.begin;
            o.length = spec.end - spec.begin;  // whole frames; then the frames after, for the last game
            tail_ = true;
        }
        open(o);
    }

    // The next piece of the text (false at its end): `ends_at_boundary` when the input goes on.
    bool next(std::string& piece, bool& ends_at_boundary) {
        if (done_) return false;
        while (!started_) {
            const std::size_t p = finder_.find(buf_, 0);
            if (p != std::string::npos) {
                finder_.reset();
                if (end_ && base_ + pgn::game_boundary_anchor(buf_, p) >= *end_) return finish();
                buf_.erase(0, p);
                base_ += p;
                started_ = true;
            } else if (!fill()) {
                return finish();
            }
        }
        for (;;) {
            std::size_t p = std::string::npos;
            bool last = false;
            if (end_ && *end_ < base_ + piece_bytes_) {
                // The end is near (or behind: the task's first game is anchored before its end but
                // starts after it): the first boundary anchored at or after it ends the task.
                for (std::size_t from = *end_ > base_ ? *end_ - base_ + 1 : 1;;) {
                    p = finder_.find(buf_, from);
                    if (p == std::string::npos || base_ + pgn::game_boundary_anchor(buf_, p) >= *end_) break;
                    from = p + 1;
                }
                last = p != std::string::npos;
            } else {
                p = finder_.find(buf_, piece_bytes_);
                last = p != std::string::npos && end_ && base_ + pgn::game_boundary_anchor(buf_, p) >= *end_;
            }
            if (p != std::string::npos) {
                finder_.reset();
                piece.assign(buf_, 0, p);
                buf_.erase(0, p);
                base_ += p;
                ends_at_boundary = true;
                done_ = last;
                return true;
            }
            if (!fill()) {
                piece = std::move(buf_);
                buf_.clear();
                ends_at_boundary = false;
                done_ = true;
                return !piece.empty() || error_;
            }
        }
    }

    [[nodiscard]] const std::optional<InputError>& error() const { return error_; }
    [[nodiscard]] std::uint64_t read() const { return base_ + buf_.size(); }

private:
    bool finish() {
        done_ = true;
        return false;
    }

    void open(const InputOptions& o) {
        auto src = open_input(spec_.path, o);
        if (!src) {
            fail(src.error());
            return;
        }
        src_ = std::move(*src);
    }

    void fail(InputError e) {
        e.path = spec_.file;  // the name the user gave, not the worker's path
        error_ = std::move(e);
        eof_ = true;
        src_.reset();
    }

    // Reads more text; false at the end of the input (or on an error).
    bool fill() {
        while (!eof_) {
            const std::size_t had = buf_.size();
            buf_.resize(had + chunk);
            auto got = src_->read(buf_.data() + had, chunk);
            buf_.resize(had + (got ? *got : 0));
            if (!got) {
                fail(got.error());
                return false;
            }
            if (*got > 0) return true;
            if (!tail_) {
                eof_ = true;
                break;
            }
            // The task's frames are read: its text ends with the first game anchored from here.
            tail_ = false;
            end_ = read();
            finder_.reset();  // it may have looked ahead for a piece's end: the task's end is nearer
            InputOptions o;
            o.compression = InputOptions::Compression::zstd;
            o.start = spec_.end;
            open(o);
        }
        return false;
    }

    static constexpr std::size_t chunk = std::size_t{1} << 20;
    const TaskSpec& spec_;
    std::size_t piece_bytes_;
    std::unique_ptr<ByteSource> src_;
    std::string buf_;                   // text read and not handed out; buf_[0] is text byte base_
    std::uint64_t base_ = 0;            // from the first byte read
    std::optional<std::uint64_t> end_;  // where the task's own bytes end (from the first byte read)
    pgn::BoundaryFinder finder_;
    std::optional<InputError> error_;
    bool tail_ = false;  // frames: the frames after the task's are still to be opened
    bool started_ = false, eof_ = false, done_ = false;
};

}  // namespace

TaskResult run_task(const TaskSpec& spec, const audit::AuditOptions& options, const AuditFilter* filter, bool summary,
                    const std::function<void(std::string_view)>& write, std::size_t piece_bytes) {
    TaskText text(spec, std::max<std::size_t>(piece_bytes, 1));
    TaskResult result;
    std::string piece;
    bool boundary = false;
    while (text.next(piece, boundary)) {
        AuditPiece p;
        p.text = piece;
        p.file = spec.file;
        p.first_line = result.newlines + 1;
        p.first_offset = result.bytes;
        p.ends_at_boundary = boundary;
        if (!boundary) p.error = text.error();
        p.relative = true;
        PieceAudit a = audit_piece(p, options, summary ? AuditFormat::summary : AuditFormat::jsonl, filter);
        result.games += a.games_read;
        result.newlines += count_newlines(piece);
        result.bytes += piece.size();
        result.counts.add(a.counts);
        if (!summary && !a.text.empty()) write(a.text);
        if (!boundary) break;
    }
    result.error = text.error();
    return result;
}

}  // namespace arbiter::face
