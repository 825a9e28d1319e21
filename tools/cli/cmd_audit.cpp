// cmd_audit.cpp — `arbiter audit`: streams PGN (files, stdin; zstd, gzip, bzip2), splits the input into
// batches at game boundaries (pgn::BoundaryFinder), audits the batches on N threads, and writes
// one result per game in input order (jsonl, csv) or a summary (formats: audit_output.hpp).
// Memory stays flat: a bounded number of batches is in flight at any time.
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <thread>

#include "audit_output.hpp"
#include "cli.hpp"
#include "game_input.hpp"

namespace arbiter::cli {

namespace {

// The text of a batch that is too long to hold (no game boundary for many megabytes: a damaged
// file, an endless stream without tags): the reading thread hands it over in parts, and one
// worker reads it through as the serial reader would, so memory stays bounded and the output is
// what it would be for any batch size.
class Stream {
public:
    // Blocks while the consumer is behind (a few parts are buffered).
    void push(std::string part) {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [this] { return parts_.size() < 4 || abandoned_; });
        if (abandoned_) return;
        parts_.push_back(std::move(part));
        cv_.notify_all();
    }
    void close(std::optional<arbiter::InputError> error) {
        std::lock_guard lock(mu_);
        closed_ = true;
        error_ = std::move(error);
        cv_.notify_all();
    }
    // The consumer gave up (an exception): pushes return at once.
    void abandon() {
        std::lock_guard lock(mu_);
        abandoned_ = closed_ = true;
        parts_.clear();
        cv_.notify_all();
    }
    // The next part, or false at the end.
    bool next(std::string& part) {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [this] { return !parts_.empty() || closed_; });
        if (parts_.empty()) return false;
        part = std::move(parts_.front());
        parts_.pop_front();
        cv_.notify_all();
        return true;
    }
    std::optional<arbiter::InputError> error() {
        std::lock_guard lock(mu_);
        return error_;
    }

private:
    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<std::string> parts_;
    bool closed_ = false, abandoned_ = false;
    std::optional<arbiter::InputError> error_;
};

// A ByteSource over a batch: its text, or the parts of its stream, then the input error that
// ended the input there (if one did). For --pgn-out it can hold on to the bytes it has handed out
// (a stream's text is not kept otherwise), up to a bound: the PGN reader's own limit on a game.
class BatchSource final : public ByteSource {
public:
    BatchSource(std::string_view text, Stream* stream, std::optional<arbiter::InputError> error,
                const std::string& name, bool hold)
        : text_(text), stream_(stream), error_(std::move(error)), name_(name), hold_(hold) {}

    // The bytes held (with `hold`), and the offset of the first.
    [[nodiscard]] std::string_view held() const noexcept { return held_; }
    [[nodiscard]] std::uint64_t held_start() const noexcept { return held_start_; }
    // The bytes before `offset` are no longer needed.
    void release(std::uint64_t offset) {
        if (offset <= held_start_) return;
        const std::uint64_t n = std::min<std::uint64_t>(offset - held_start_, held_.size());
        held_.erase(0, n);
        held_start_ += n;
    }
    Expected<std::size_t, arbiter::InputError> read(char* buffer, std::size_t size) override {
        while (at_ == text_.size()) {
            if (!stream_ || !stream_->next(part_)) {
                if (stream_) error_ = stream_->error(), stream_ = nullptr;
                if (error_) {
                    arbiter::InputError e = std::move(*error_);
                    error_.reset();
                    return Unexpected(std::move(e));
                }
                return std::size_t{0};
            }
            text_ = part_;
            at_ = 0;
        }
        const std::size_t n = std::min(size, text_.size() - at_);
        std::memcpy(buffer, text_.data() + at_, n);
        at_ += n;
        if (hold_) {
            held_.append(buffer, n);
            // More than a game may have (ReaderOptions::max_game_bytes) and some: the oldest go,
            // and a game whose bytes went is written from its moves (PgnOut).
            constexpr std::size_t hold_limit = (64u << 20) + (1u << 20), slack = 8u << 20;
            if (held_.size() > hold_limit + slack) release(held_start_ + (held_.size() - hold_limit));
        }
        return n;
    }
    [[nodiscard]] std::uint64_t consumed() const noexcept override { return 0; }
    [[nodiscard]] std::optional<std::uint64_t> total() const noexcept override { return std::nullopt; }
    [[nodiscard]] const std::string& name() const noexcept override { return name_; }

private:
    std::string_view text_;
    std::size_t at_ = 0;
    Stream* stream_;
    std::string part_;
    std::optional<arbiter::InputError> error_;
    const std::string& name_;
    bool hold_;
    std::string held_;
    std::uint64_t held_start_ = 0;
};

// A run of whole games cut from one input at game boundaries (or a stream of them).
struct Batch {
    std::uint64_t seq = 0;
    std::size_t file = 0;
    std::string text;
    std::uint64_t first_line = 1;  // line number of the batch's first byte in its file
    std::uint64_t first_offset = 0;
    bool ends_at_boundary = false;             // the input goes on with the next game (else: its end)
    std::optional<arbiter::InputError> error;  // the read error that ended the input after `text`
    std::shared_ptr<Stream> stream;            // a streamed batch: `text` is empty, the parts come here
};

struct BatchResult {
    // Per game (jsonl, csv), without the leading game number; nullopt for a game --select leaves out.
    std::vector<std::optional<std::string>> lines;
    AuditCounts counts;
    std::size_t file = 0;
    std::string pgn;  // --pgn-out: the games with findings
    std::uint64_t pgn_games = 0;
    std::uint64_t games_read = 0;  // selected or not
};

struct Config {
    AuditFormat format = AuditFormat::jsonl;
    AuditFilter filter;
    bool pgn_out = false;
    audit::AuditOptions options;
    std::vector<std::string> files;
    std::size_t batch_bytes = 1 << 20;
    std::uint32_t max_plies = pgn::ReaderOptions{}.max_game_plies;
};

// Audits the games of one batch; `each(game, result, selected)` is called for every game in order
// (`selected`: --select keeps it; its findings are those --only keeps). With --pgn-out, the games
// with findings are appended to `pgn` as each game's end becomes known (a game ends where the next
// one starts), and `pgn_games` counts them.
template <class Each>
void audit_batch(const Batch& b, const Config& cfg, GameRecord& record, pgn::ParsedGame& game, std::string& pgn,
                 std::uint64_t& pgn_games, Each&& each) {
    BatchSource src(b.text, b.stream.get(), b.error, cfg.files[b.file], cfg.pgn_out && b.stream);
    pgn::GameReaderOptions ro;
    ro.keep_positions = true;  // audit_game replays each game without making the moves again
    ro.reader.input_continues = b.ends_at_boundary;
    ro.reader.max_game_plies = cfg.max_plies;
    pgn::GameReader reader(src, ro);
    PgnOut out;
    out.bytes_may_go = b.stream != nullptr;
    // The input the PGN writer can copy from: a batch's text, or what a stream still holds.
    const auto window = [&] { return b.stream ? src.held() : std::string_view(b.text); };
    const auto window_start = [&] { return b.stream ? src.held_start() : std::uint64_t{0}; };
    while (reader.next(game)) {
        audit::GameAudit result = audit::audit_game(game, cfg.options, record);
        const bool selected = cfg.filter.selects(game);
        if (selected)
            cfg.filter.apply(result);
        else
            result.findings.clear();
        if (cfg.pgn_out) {
            out.game(game, result, window(), window_start(), pgn);
            if (b.stream) {
                // What the next game cannot need: the bytes before this game's last token.
                std::uint64_t last = std::max(game.pos.offset, game.result_pos.offset);
                if (!game.plies.empty()) last = std::max(last, game.plies.back().pos.offset);
                src.release(out.needed().value_or(last));
            }
        }
        each(game, result, selected);
    }
    if (cfg.pgn_out) out.finish(window(), window_start(), pgn);
    pgn_games = out.written();
}

// A game's output line (jsonl or csv) without its game number; empty for the summary.
std::string format_game(const Batch& b, const Config& cfg, const pgn::ParsedGame& game,
                        const audit::GameAudit& result) {
    if (cfg.format == AuditFormat::summary) return {};
    const GameSource from{&cfg.files[b.file], b.first_line, b.first_offset};
    return cfg.format == AuditFormat::jsonl ? jsonl_record(game, result, from) : csv_rows(game, result, from);
}

}  // namespace

PieceAudit audit_piece(const AuditPiece& piece, const audit::AuditOptions& options, AuditFormat format,
                       const AuditFilter* filter) {
    if (format == AuditFormat::csv) throw std::invalid_argument("audit_piece: jsonl or summary");
    Config cfg;
    cfg.format = format;
    cfg.options = options;
    if (filter) cfg.filter = *filter;
    cfg.files = {piece.file};
    const Batch b{
        0,           0,      std::string(piece.text), piece.first_line, piece.first_offset, piece.ends_at_boundary,
        piece.error, nullptr};
    GameRecord record;
    pgn::ParsedGame game;
    std::string pgn;
    std::uint64_t pgn_games = 0;
    PieceAudit out;
    audit_batch(b, cfg, record, game, pgn, pgn_games,
                [&](const pgn::ParsedGame& g, const audit::GameAudit& result, bool selected) {
                    ++out.games_read;
                    if (selected) out.counts.add_game(g, result);
                    if (format == AuditFormat::summary) return;
                    if (selected)
                        out.text += format_game(b, cfg, g, result);
                    else
                        out.text += '\n';
                });
    return out;
}

namespace {

// A write to the output (or to --pgn-out) failed (errno when it did).
struct OutputFailed {
    int error = 0;
    bool pgn = false;
};

class Pipeline {
public:
    Pipeline(const Config& cfg, std::ostream& out, std::ostream* pgn, unsigned threads, bool progress)
        : cfg_(cfg), out_(out), pgn_(pgn), threads_(threads), progress_(progress) {}

    // Returns false when an input could not be read to its end. An exception on any thread (out
    // of memory, a failed write) stops every thread and is rethrown here.
    bool run() {
        start_ = last_progress_ = std::chrono::steady_clock::now();
        total_bytes_ = known_total_bytes(cfg_.files);
        std::vector<std::thread> workers;
        bool ok = true;
        try {
            for (unsigned t = 0; t < threads_; ++t) workers.emplace_back([this] { work(); });
            for (std::size_t f = 0; f < cfg_.files.size() && !failed(); ++f) ok &= read_file(f);
        } catch (...) {
            fail(std::current_exception());
        }
        {
            std::lock_guard lock(mu_);
            done_reading_ = true;
        }
        work_cv_.notify_all();
        for (auto& w : workers) w.join();
        if (progress_) std::cerr << "\r\033[K";
        if (error_) std::rethrow_exception(error_);
        // The CSV header comes before the first row, or at the end when games were read but had no
        // row (none for an input without games, which is an error).
        if (cfg_.format == AuditFormat::csv && !header_written_ && games_written_ > 0) out_ << csv_header;
        return ok;
    }

    const AuditCounts& counts() const { return total_; }
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
    std::uint64_t bytes() const { return bytes_read_; }
    std::uint64_t games_read() const { return games_written_; }
    std::uint64_t pgn_games() const { return pgn_games_; }

private:
    // A batch without a game boundary grows to this much over the batch size; then it is streamed.
    static constexpr std::size_t stream_after = 4 << 20;
    // Bytes kept before the unsent text of a stream, for the boundary test to look back on.
    static constexpr std::size_t stream_context = 4096;
    static constexpr std::size_t read_chunk = 1 << 18;

    // The sum of the sizes of the inputs, when every one is a regular file (for the ETA).
    static std::uint64_t known_total_bytes(const std::vector<std::string>& files) {
        std::uint64_t total = 0;
        for (const auto& f : files) {
            std::error_code ec;
            if (f == "-" || !std::filesystem::is_regular_file(f, ec)) return 0;
            total += std::filesystem::file_size(f, ec);
            if (ec) return 0;
        }
        return total;
    }

    bool read_file(std::size_t f) {
        auto src = open_input(cfg_.files[f]);
        if (!src) {
            std::cerr << "arbiter: " << src.error().describe() << '\n';
            return false;
        }
        std::string pending = take_buffer();
        std::uint64_t line = 1, offset = 0;
        pgn::BoundaryFinder boundaries;
        std::shared_ptr<Stream> stream;  // while a batch is being streamed
        struct AbandonOnThrow {
            std::shared_ptr<Stream>& stream;
            ~AbandonOnThrow() {
                if (stream) stream->abandon();
            }
        } guard{stream};
        std::size_t context = 0;  // with a stream: bytes of `pending` already sent
        std::optional<arbiter::InputError> error;
        std::vector<char> buf(read_chunk);
        // Sends pending[context, to) into the stream.
        auto send = [&](std::size_t to) {
            const std::string_view part = std::string_view(pending).substr(context, to - context);
            line += count_newlines(part);
            offset += part.size();
            stream->push(std::string(part));
        };
        for (;;) {
            auto n = (*src)->read(buf.data(), buf.size());
            if (!n) {
                std::cerr << "arbiter: " << n.error().describe() << " (the games before it were audited)\n";
                error = n.error();
                break;
            }
            if (*n == 0 || failed()) break;
            pending.append(buf.data(), *n);
            bytes_read_ += *n;
            for (;;) {
                if (!stream) {
                    cut_batches(f, pending, line, offset, boundaries);
                    if (pending.size() <= cfg_.batch_bytes + stream_after) break;
                    // No game boundary for megabytes: this batch is streamed to one worker.
                    stream = std::make_shared<Stream>();
                    submit(Batch{next_seq_++, f, {}, line, offset, false, std::nullopt, stream});
                    context = 0;
                    boundaries.reset();
                }
                const std::size_t cut = boundaries.find(pending, std::max<std::size_t>(context, 1));
                if (cut == std::string::npos) {
                    // Send all but the last bytes (a boundary may start in them), and keep some
                    // of the text sent for the boundary test to look back on.
                    constexpr std::size_t keep = 8;
                    const std::size_t to = pending.size() > context + keep ? pending.size() - keep : context;
                    if (to > context) send(to);
                    const std::size_t from = to > stream_context ? to - stream_context : 0;
                    pending.erase(0, from);
                    context = to - from;
                    boundaries.reset();
                    break;
                }
                send(cut);
                stream->close(std::nullopt);
                stream.reset();
                pending.erase(0, cut);
                context = 0;
                boundaries.reset();
            }
            show_progress((*src)->consumed());
        }
        if (stream) {
            send(pending.size());
            stream->close(error);
            stream.reset();
        } else if (!pending.empty() || error) {
            submit(Batch{next_seq_++, f, std::move(pending), line, offset, false, error, nullptr});
        }
        consumed_before_ += (*src)->consumed();
        return !error;
    }

    // Cuts whole batches of at least batch_bytes off the front of `pending`, at game boundaries.
    void cut_batches(std::size_t f, std::string& pending, std::uint64_t& line, std::uint64_t& offset,
                     pgn::BoundaryFinder& boundaries) {
        for (;;) {
            const std::size_t cut = boundaries.find(pending, cfg_.batch_bytes);
            if (cut == std::string::npos) return;
            // The batch keeps this buffer; the text after the cut moves to a recycled one.
            std::string rest = take_buffer();
            rest.append(pending, cut, std::string::npos);
            pending.resize(cut);
            const std::uint64_t batch_line = line;
            line += count_newlines(pending);
            submit(Batch{next_seq_++, f, std::move(pending), batch_line, offset, true, std::nullopt, nullptr});
            offset += cut;
            pending = std::move(rest);
            boundaries.reset();
        }
    }

    // A buffer for the next batch: a recycled one (its memory already mapped in) or a new one
    // with room for a whole batch, so that filling it never reallocates.
    std::string take_buffer() {
        {
            std::lock_guard lock(mu_);
            if (!spare_.empty()) {
                std::string s = std::move(spare_.back());
                spare_.pop_back();
                return s;
            }
        }
        std::string s;
        s.reserve(std::min(cfg_.batch_bytes, std::size_t{64} << 20) + 2 * read_chunk);
        return s;
    }

    void submit(Batch b) {
        std::unique_lock lock(mu_);
        space_cv_.wait(lock, [this] { return queue_.size() + results_.size() < 2 * threads_ + 2 || error_; });
        if (error_) {
            if (b.stream) b.stream->abandon();
            return;
        }
        queue_.push_back(std::move(b));
        work_cv_.notify_one();
    }

    bool failed() {
        std::lock_guard lock(mu_);
        return error_ != nullptr;
    }

    // Records the first exception and wakes every thread so that all of them stop.
    void fail(std::exception_ptr e) {
        std::lock_guard lock(mu_);
        if (!error_) error_ = std::move(e);
        for (auto& b : queue_)
            if (b.stream) b.stream->abandon();
        queue_.clear();
        work_cv_.notify_all();
        space_cv_.notify_all();
    }

    void work() {
        GameRecord record;
        pgn::ParsedGame game;
        for (;;) {
            Batch b;
            {
                std::unique_lock lock(mu_);
                work_cv_.wait(lock, [this] { return !queue_.empty() || done_reading_ || error_; });
                if (queue_.empty() || error_) return;
                b = std::move(queue_.front());
                queue_.pop_front();
            }
            try {
                if (b.stream)
                    run_stream(b, record, game);
                else
                    run_batch(b, record, game);
            } catch (...) {
                if (b.stream) b.stream->abandon();
                fail(std::current_exception());
                return;
            }
        }
    }

    void run_batch(Batch& b, GameRecord& record, pgn::ParsedGame& game) {
        BatchResult r;
        r.file = b.file;
        audit_batch(b, cfg_, record, game, r.pgn, r.pgn_games,
                    [&](const pgn::ParsedGame& g, const audit::GameAudit& result, bool selected) {
                        ++r.games_read;
                        if (!selected) {
                            if (cfg_.format != AuditFormat::summary) r.lines.emplace_back();
                            return;
                        }
                        r.counts.add_game(g, result);
                        if (cfg_.format != AuditFormat::summary) r.lines.emplace_back(format_game(b, cfg_, g, result));
                    });
        std::unique_lock lock(mu_);
        if (spare_.size() < 2 * threads_ + 4) {
            b.text.clear();
            spare_.push_back(std::move(b.text));
        }
        results_.emplace(b.seq, std::move(r));
        write_ready();
    }

    // A streamed batch is written as its games are audited, once every batch before it is.
    void run_stream(Batch& b, GameRecord& record, pgn::ParsedGame& game) {
        {
            std::unique_lock lock(mu_);
            space_cv_.wait(lock, [&] { return next_write_ == b.seq || error_; });
            if (error_) return b.stream->abandon();
        }
        std::string pgn;
        std::uint64_t pgn_games = 0;
        audit_batch(b, cfg_, record, game, pgn, pgn_games,
                    [&](const pgn::ParsedGame& g, const audit::GameAudit& result, bool selected) {
                        const std::string text = selected ? format_game(b, cfg_, g, result) : std::string();
                        std::lock_guard lock(mu_);
                        count_game(b.file);
                        if (!text.empty()) write_game(text);
                        if (!out_) throw OutputFailed{errno};
                        write_pgn(pgn);
                        if (selected) total_.add_game(g, result);
                    });
        std::lock_guard lock(mu_);
        write_pgn(pgn);
        pgn_games_ += pgn_games;
        ++next_write_;
        write_ready();
    }

    // Writes the results that are next in order (mu_ held).
    void write_ready() {
        while (!results_.empty() && results_.begin()->first == next_write_) {
            BatchResult ready = std::move(results_.begin()->second);
            results_.erase(results_.begin());
            ++next_write_;
            for (const auto& l : ready.lines) {
                count_game(ready.file);
                if (l) write_game(*l);
            }
            if (!out_) throw OutputFailed{errno};
            write_pgn(ready.pgn);
            pgn_games_ += ready.pgn_games;
            if (cfg_.format == AuditFormat::summary) games_written_ += ready.games_read;
            total_.add(ready.counts);
        }
        space_cv_.notify_all();
    }

    // Writes a game's jsonl or csv text with its numbers, after the CSV header (mu_ held).
    void write_game(const std::string& text) {
        if (cfg_.format == AuditFormat::csv && !header_written_) out_ << csv_header;
        header_written_ = true;
        write_numbered(out_, cfg_.format, games_written_, game_in_file_, text);
    }

    // Writes (and empties) --pgn-out text (mu_ held).
    void write_pgn(std::string& text) {
        if (!pgn_ || text.empty()) return;
        pgn_->write(text.data(), static_cast<std::streamsize>(text.size()));
        if (!*pgn_) throw OutputFailed{errno, true};
        text.clear();
    }

    // The numbers of the next game written, over all inputs and in its file (mu_ held).
    void count_game(std::size_t file) {
        if (file != written_file_) {
            written_file_ = file;
            game_in_file_ = 0;
        }
        ++games_written_;
        ++game_in_file_;
    }

    // progress_line() on stderr, twice a second at most; the ETA
    // is over all the inputs (when their sizes are known) and only once a game was audited.
    void show_progress(std::uint64_t consumed) {
        if (!progress_) return;
        const auto now = std::chrono::steady_clock::now();
        if (now - last_progress_ < std::chrono::milliseconds(500)) return;
        std::uint64_t games;
        {
            std::lock_guard lock(mu_);
            games = total_.games;
        }
        if (games == 0) return;  // no "0 games" line first
        last_progress_ = now;
        std::fprintf(stderr, "\r\033[K%s",
                     progress_line(consumed_before_ + consumed, total_bytes_, games, seconds()).c_str());
        std::fflush(stderr);
    }

    const Config& cfg_;
    std::ostream& out_;
    std::ostream* pgn_;
    unsigned threads_;
    bool progress_;
    std::mutex mu_;
    std::condition_variable work_cv_, space_cv_;
    std::deque<Batch> queue_;
    std::vector<std::string> spare_;  // emptied batch buffers, for reuse
    std::map<std::uint64_t, BatchResult> results_;
    std::uint64_t next_seq_ = 0, next_write_ = 0, games_written_ = 0, game_in_file_ = 0;
    std::size_t written_file_ = SIZE_MAX;
    bool done_reading_ = false, header_written_ = false;
    std::exception_ptr error_;
    AuditCounts total_;
    std::uint64_t bytes_read_ = 0, total_bytes_ = 0, consumed_before_ = 0, pgn_games_ = 0;
    std::chrono::steady_clock::time_point start_, last_progress_{};
};

// The report file of --output. Refused when it is one of the inputs (the same device and inode:
// through a symlink or a hard link too), so that no input is truncated before it is read. A
// regular file (or a new one) is written to a temporary file beside it and renamed into place
// once the audit is complete, so an interrupted run never leaves a half-written report under the
// final name; a device or a pipe (/dev/stdout, /dev/full) is written directly.
class OutputFile {
public:
    OutputFile(const std::string& path, const std::vector<std::string>& inputs) : path_(path) {
        namespace fs = std::filesystem;
        struct stat out {};
        const bool exists = ::stat(path.c_str(), &out) == 0;
        if (exists) {
            for (const auto& in : inputs) {
                struct stat st {};
                const int got = in == "-" ? ::fstat(STDIN_FILENO, &st) : ::stat(in.c_str(), &st);
                if (got == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino)
                    throw InputError("--output '" + path + "' is the input '" + in +
                                     "' (the same file): refusing to overwrite an input");
            }
        }
        if (exists && !S_ISREG(out.st_mode)) {
            file_.open(path, std::ios::binary);
            if (!file_) throw InputError("--output: cannot write '" + path + "': " + std::strerror(errno));
            return;
        }
        // The file the name stands for (a symlink is followed), and a temporary name beside it.
        std::error_code ec;
        target_ = exists ? fs::canonical(path, ec).string() : path;
        if (ec) target_ = path;
        const fs::path t(target_);
        std::string tmpl = (t.parent_path() / ("." + t.filename().string() + ".XXXXXX")).string();
        const int fd = ::mkstemp(tmpl.data());
        if (fd < 0) throw InputError("--output: cannot write '" + path + "': " + std::strerror(errno));
        // The permissions the file has, or a new file's (0666 less the umask).
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::fchmod(fd, exists ? (out.st_mode & 07777) : (0666 & ~mask));
        ::close(fd);
        temp_ = tmpl;
        file_.open(temp_, std::ios::binary | std::ios::trunc);
        if (!file_) throw InputError("--output: cannot write '" + path + "': " + std::strerror(errno));
    }
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;
    ~OutputFile() {
        if (!temp_.empty()) ::unlink(temp_.c_str());
    }

    std::ostream& stream() { return file_; }

    // The report is complete: flushed, checked, renamed into place.
    void commit() {
        file_.flush();
        if (!file_) throw InputError("cannot write '" + path_ + "': " + std::strerror(errno), 1);
        file_.close();
        if (!file_) throw InputError("cannot write '" + path_ + "': " + std::strerror(errno), 1);
        if (temp_.empty()) return;
        if (::rename(temp_.c_str(), target_.c_str()) != 0)
            throw InputError("cannot write '" + path_ + "': " + std::strerror(errno), 1);
        temp_.clear();
    }

private:
    std::string path_, target_, temp_;
    std::ofstream file_;
};

}  // namespace

void add_audit(CLI::App& app) {
    auto* cmd =
        app.add_subcommand("audit", "Audit PGN games against the draw rules (files, '-' for stdin, compressed or not)");
    struct Options {
        std::vector<std::string> files;
        std::string rules = "auto";
        unsigned threads = 0;
        std::string format = "jsonl";
        std::string output;
        std::string pgn_out;
        std::vector<std::string> only, select;
        bool quiet = false;
        bool json = false;
        bool exact = false;
        std::string time_category;
        std::size_t batch_bytes = 1 << 20;
        std::uint32_t max_plies = pgn::ReaderOptions{}.max_game_plies;
    };
    auto o = std::make_shared<Options>();
    cmd->add_option("files", o->files,
                    "PGN files ('-' = standard input; zstd, gzip and bzip2 are decompressed, detected by content)")
        ->required();
    cmd->add_option("--rules", o->rules,
                    "A rule set for every game, or auto (default: from each game's Date and Site tags)");
    cmd->add_option("-j,--threads", o->threads, "Worker threads (default: all cores)");
    cmd->add_option("--format", o->format,
                    "jsonl (default: one object per game), csv (one row per finding) or summary");
    cmd->add_option("-o,--output", o->output, "Write to this file instead of standard output");
    cmd->add_option("--pgn-out", o->pgn_out,
                    "Also write the games with findings to this file as PGN, each finding a comment at its ply");
    cmd->add_option("--only", o->only,
                    "Report only these findings: types or kinds, comma-separated (e.g. timeout_unwinnable,threefold)")
        ->allow_extra_args(false);  // one value per --only: the files follow
    cmd->add_option("--select", o->select,
                    "Audit only the games whose tag has this value: TAG=VALUE, exact (repeat: all must hold)")
        ->allow_extra_args(false);
    cmd->add_option("--time-category", o->time_category,
                    enum_name_list<TimeCategory>() + " for every game (default: from each game's TimeControl tag)");
    cmd->add_flag("-q,--quiet", o->quiet, "No progress line on stderr");
    cmd->add_flag("--exact", o->exact,
                  "Dead positions: the full analysis of every game's final position (default: of the closed "
                  "ones only, which finds most dead positions at a fraction of the cost; docs/unwinnability.md)");
    cmd->add_option("--max-plies", o->max_plies,
                    "Mainline plies a game may have; a longer one is the error game_too_long (default 18000: "
                    "FIDE 9.6.2 ends every game within 17,697)")
        ->check(CLI::Range(std::uint32_t{1}, std::uint32_t{100'000'000}));
    cmd->add_option("--batch-bytes", o->batch_bytes, "Approximate bytes of PGN per unit of work (tests)")
        ->group("")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 30));
    cmd->add_flag("--json", o->json, "With --format summary: the summary as one JSON object");
    auto rule_in = std::make_shared<RuleInput>();  // the rule options of status and claim
    rule_in->add_rule_options(*cmd);
    cmd->callback([o, rule_in] {
        Config cfg;
        cfg.options.rule_options = rule_in->rule_options();
        cfg.options.exact = o->exact;
        cfg.files = o->files;
        cfg.batch_bytes = o->batch_bytes;
        cfg.max_plies = o->max_plies;
        for (const auto& list : o->only)
            if (const auto error = cfg.filter.add_only(list); !error.empty()) throw InputError(error);
        for (const auto& spec : o->select)
            if (const auto error = cfg.filter.add_select(spec); !error.empty()) throw InputError(error);
        cfg.pgn_out = !o->pgn_out.empty();
        const auto format = parse_enum<AuditFormat>(o->format);
        if (!format)
            throw InputError("--format: expected " + enum_name_list<AuditFormat>() + ", found '" + o->format + "'");
        cfg.format = *format;
        if (o->json && cfg.format != AuditFormat::summary)
            throw InputError("--json applies only with --format summary (--format " + o->format +
                             " is already machine-readable)");
        if (o->rules != "auto") {
            const auto id = parse_rule_set(o->rules);
            if (!id) throw InputError("--rules: unknown rule set '" + o->rules + "' (expected auto or a rule-set id)");
            cfg.options.rules = *id;
            rule_in->check_applies(rule_set(*id));
        }
        if (!o->time_category.empty()) {
            const auto tc = parse_time_category(o->time_category);
            if (!tc)
                throw InputError("--time-category: expected " + enum_name_list<TimeCategory>() + ", found '" +
                                 o->time_category + "'");
            cfg.options.rule_options.time_category = *tc;
            cfg.options.time_category_from_tag = false;
        }
        unsigned threads = o->threads ? o->threads : std::max(1u, std::thread::hardware_concurrency());
        if (threads > 256) throw InputError("--threads: at most 256");
        if (cfg.pgn_out && !o->output.empty()) {
            std::error_code ec1, ec2;
            const auto a = std::filesystem::weakly_canonical(o->output, ec1);
            const auto b = std::filesystem::weakly_canonical(o->pgn_out, ec2);
            if (o->output == o->pgn_out || (!ec1 && !ec2 && a == b))
                throw InputError("--pgn-out '" + o->pgn_out + "' is also --output: name two files");
        }
        std::optional<OutputFile> file, pgn_file;
        if (!o->output.empty()) file.emplace(o->output, cfg.files);
        if (cfg.pgn_out) pgn_file.emplace(o->pgn_out, cfg.files);
        std::ostream& out = file ? file->stream() : std::cout;
        const bool progress = !o->quiet && isatty(STDERR_FILENO);
        Pipeline pipeline(cfg, out, pgn_file ? &pgn_file->stream() : nullptr, threads, progress);
        bool ok = false;
        const std::string written = file ? "'" + o->output + "'" : std::string("standard output");
        try {
            ok = pipeline.run();
            // Nothing to report: an error, with nothing on stdout and no --output or --pgn-out file.
            if (ok && pipeline.games_read() == 0) throw InputError("no games found in the input: nothing to audit");
            if (cfg.format == AuditFormat::summary)
                print_summary(out, pipeline.counts(), pipeline.seconds(), pipeline.bytes(), o->json);
            out.flush();
            if (!out) throw OutputFailed{errno};
        } catch (const std::bad_alloc&) {
            // From any thread of the pipeline (carried to this one): exit 1 with a message.
            throw InputError("out of memory while auditing (fewer --threads or a smaller --batch-bytes need less)", 1);
        } catch (const OutputFailed& e) {
            throw InputError("cannot write " + (e.pgn ? "'" + o->pgn_out + "'" : written) + ": " +
                                 (e.error ? std::strerror(e.error) : "write error"),
                             1);
        }
        if (file) file->commit();
        if (pgn_file) pgn_file->commit();
        if (!ok) throw InputError("some input could not be read to its end (see above)");
        if (pipeline.games_read() == 0) throw InputError("no games found in the input: nothing to audit");
        if (pipeline.counts().games == 0)
            std::cerr << "arbiter: no game has the tags --select asks for (" << pipeline.games_read()
                      << " games read)\n";
        // The report went to a file: one line at the end for the person at the terminal.
        if (file && !o->quiet && isatty(STDERR_FILENO)) {
            std::cerr << summary_line(pipeline.counts(), pipeline.seconds()) << "; report in '" << o->output << "'";
            if (pgn_file) std::cerr << "; " << pipeline.pgn_games() << " games in '" << o->pgn_out << "'";
            std::cerr << '\n';
        }
    });
}

}  // namespace arbiter::cli
