// cmd_audit.cpp — `arbiter audit`: streams PGN (files, stdin, .pgn.zst), splits the input into
// batches at game boundaries (pgn::BoundaryFinder), audits the batches on N threads, and writes
// one result per game in input order (jsonl, csv) or a summary (formats: audit_output.hpp).
// Memory stays flat: a bounded number of batches is in flight at any time.
#include <unistd.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "audit_output.hpp"
#include "cli.hpp"

namespace arbiter::cli {

namespace {

// A run of whole games cut from one input.
struct Batch {
    std::uint64_t seq = 0;
    std::size_t file = 0;
    std::string text;
    std::uint64_t first_line = 1;  // line number of the batch's first byte in its file
    std::uint64_t first_offset = 0;
    // Bytes of `text` that belong to the input. A batch cut before the next game ends with
    // that game's first tag added back, so the reader sees what it would see reading straight
    // through (e.g. "comment not closed before the next game"); games starting there are not
    // this batch's.
    std::size_t own_size = 0;
};

constexpr std::string_view next_game_sentinel = "[Event \"\"]\n";

struct BatchResult {
    std::vector<std::string> lines;  // per game, without the leading game number
    AuditCounts counts;
    std::size_t file = 0;
};

// Lines in `text`: eight bytes at a time (this runs on the reading thread, over every byte).
std::uint64_t count_newlines(std::string_view text) noexcept {
    constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    constexpr std::uint64_t nl = ones * static_cast<unsigned char>('\n');
    std::uint64_t n = 0;
    std::size_t i = 0;
    for (; i + 8 <= text.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, text.data() + i, 8);
        const std::uint64_t x = w ^ nl;  // zero bytes where a newline was
        // A byte's high bit ends up set exactly when the byte was zero (no borrow across bytes).
        n += static_cast<std::uint64_t>(std::popcount(~(((x & ~highs) + ~highs) | x) & highs));
    }
    for (; i < text.size(); ++i) n += text[i] == '\n';
    return n;
}

struct Config {
    AuditFormat format = AuditFormat::jsonl;
    audit::AuditOptions options;
    bool several_files = false;
    std::vector<std::string> files;
    std::size_t batch_bytes = 1 << 20;
};

// Audits one batch: every game in it, formatted without its global game number.
BatchResult run_batch(const Batch& b, const Config& cfg, GameRecord& record, pgn::ParsedGame& game) {
    BatchResult out;
    out.file = b.file;
    auto src = memory_input(b.text, {InputOptions::Compression::plain}, cfg.files[b.file]);
    pgn::GameReaderOptions ro;
    ro.keep_positions = true;  // audit_game replays each game without making the moves again
    pgn::GameReader reader(*src, ro);
    while (reader.next(game)) {
        if (game.pos.offset >= b.own_size) break;  // the next batch's first game
        const auto result = audit::audit_game(game, cfg.options, record);
        out.counts.add_game(game, result);
        if (cfg.format == AuditFormat::summary) continue;
        const GameSource from{&cfg.files[b.file], cfg.several_files, b.first_line, b.first_offset};
        out.lines.push_back(cfg.format == AuditFormat::jsonl ? jsonl_record(game, result, from)
                                                             : csv_rows(game, result, from));
    }
    return out;
}

class Pipeline {
public:
    Pipeline(const Config& cfg, std::ostream& out, unsigned threads, bool progress)
        : cfg_(cfg), out_(out), threads_(threads), progress_(progress) {}

    // Returns false when an input could not be read to its end.
    bool run() {
        if (cfg_.format == AuditFormat::csv) out_ << csv_header;
        start_ = std::chrono::steady_clock::now();
        std::vector<std::thread> workers;
        for (unsigned t = 0; t < threads_; ++t) workers.emplace_back([this] { work(); });
        bool ok = true;
        for (std::size_t f = 0; f < cfg_.files.size(); ++f) ok &= read_file(f);
        {
            std::lock_guard lock(mu_);
            done_reading_ = true;
        }
        work_cv_.notify_all();
        for (auto& w : workers) w.join();
        if (progress_) std::cerr << "\r\033[K";
        return ok;
    }

    const AuditCounts& counts() const { return total_; }
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
    std::uint64_t bytes() const { return bytes_read_; }

private:
    bool read_file(std::size_t f) {
        auto src = open_input(cfg_.files[f]);
        if (!src) {
            std::cerr << "arbiter: " << src.error().describe() << '\n';
            return false;
        }
        if (auto t = (*src)->total()) total_bytes_ += *t;
        const std::size_t batch_bytes = cfg_.batch_bytes;
        std::string pending = take_buffer();
        std::uint64_t line = 1, offset = 0;
        pgn::BoundaryFinder boundaries;
        std::vector<char> buf(read_chunk);
        bool ok = true;
        for (;;) {
            auto n = (*src)->read(buf.data(), buf.size());
            if (!n) {
                std::cerr << "arbiter: " << n.error().describe() << " (the games before it were audited)\n";
                ok = false;
                break;
            }
            if (*n == 0) break;
            pending.append(buf.data(), *n);
            bytes_read_ += *n;
            for (;;) {
                const std::size_t cut = boundaries.find(pending, batch_bytes);
                if (cut == std::string::npos) break;
                // The batch keeps this buffer; the text after the cut moves to a recycled one.
                std::string rest = take_buffer();
                rest.append(pending, cut, std::string::npos);
                pending.resize(cut);
                const std::uint64_t batch_line = line;
                line += count_newlines(pending);
                pending += next_game_sentinel;
                submit(Batch{next_seq_++, f, std::move(pending), batch_line, offset, cut});
                offset += cut;
                pending = std::move(rest);
                boundaries.reset();
            }
            show_progress((*src)->consumed());
        }
        if (!pending.empty()) {
            const std::size_t size = pending.size();
            submit(Batch{next_seq_++, f, std::move(pending), line, offset, size});
        }
        consumed_before_ += (*src)->consumed();
        return ok;
    }

    static constexpr std::size_t read_chunk = 1 << 18;

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
        s.reserve(cfg_.batch_bytes + 2 * read_chunk + next_game_sentinel.size());
        return s;
    }

    void submit(Batch b) {
        std::unique_lock lock(mu_);
        space_cv_.wait(lock, [this] { return queue_.size() + results_.size() < 2 * threads_ + 2; });
        queue_.push_back(std::move(b));
        work_cv_.notify_one();
    }

    void work() {
        GameRecord record;
        pgn::ParsedGame game;
        for (;;) {
            Batch b;
            {
                std::unique_lock lock(mu_);
                work_cv_.wait(lock, [this] { return !queue_.empty() || done_reading_; });
                if (queue_.empty()) return;
                b = std::move(queue_.front());
                queue_.pop_front();
            }
            BatchResult r = run_batch(b, cfg_, record, game);
            std::unique_lock lock(mu_);
            if (spare_.size() < 2 * threads_ + 4) {
                b.text.clear();
                spare_.push_back(std::move(b.text));
            }
            results_.emplace(b.seq, std::move(r));
            // Whoever holds the next batch in order writes it (and any that follow).
            while (!results_.empty() && results_.begin()->first == next_write_) {
                BatchResult ready = std::move(results_.begin()->second);
                results_.erase(results_.begin());
                ++next_write_;
                for (const auto& l : ready.lines) write_numbered(out_, cfg_.format, ++games_written_, l);
                games_written_ += cfg_.format == AuditFormat::summary ? ready.counts.games : 0;
                total_.add(ready.counts);
            }
            space_cv_.notify_all();
        }
    }

    void show_progress(std::uint64_t consumed) {
        if (!progress_) return;
        const auto now = std::chrono::steady_clock::now();
        if (now - last_progress_ < std::chrono::milliseconds(500)) return;
        last_progress_ = now;
        std::uint64_t games;
        {
            std::lock_guard lock(mu_);
            games = total_.games;
        }
        const double s = seconds();
        const double done = static_cast<double>(consumed_before_ + consumed);
        std::fprintf(stderr, "\r\033[K%.1f MB, %llu games, %.0f games/s", done / 1e6,
                     static_cast<unsigned long long>(games), s > 0 ? static_cast<double>(games) / s : 0.0);
        if (total_bytes_ > 0 && done > 0) {
            const double eta = s * (static_cast<double>(total_bytes_) - done) / done;
            std::fprintf(stderr, ", ETA %.0f s", eta > 0 ? eta : 0.0);
        }
        std::fflush(stderr);
    }

    const Config& cfg_;
    std::ostream& out_;
    unsigned threads_;
    bool progress_;
    std::mutex mu_;
    std::condition_variable work_cv_, space_cv_;
    std::deque<Batch> queue_;
    std::vector<std::string> spare_;  // emptied batch buffers, for reuse
    std::map<std::uint64_t, BatchResult> results_;
    std::uint64_t next_seq_ = 0, next_write_ = 0, games_written_ = 0;
    bool done_reading_ = false;
    AuditCounts total_;
    std::uint64_t bytes_read_ = 0, total_bytes_ = 0, consumed_before_ = 0;
    std::chrono::steady_clock::time_point start_, last_progress_{};
};

}  // namespace

void add_audit(CLI::App& app) {
    auto* cmd = app.add_subcommand("audit", "Audit PGN games against the draw rules (files, '-' for stdin, .pgn.zst)");
    struct Options {
        std::vector<std::string> files;
        std::string rules = "auto";
        unsigned threads = 0;
        std::string format = "jsonl";
        std::string output;
        bool quiet = false;
        bool json = false;
        std::string time_category;
        std::size_t batch_bytes = 1 << 20;
    };
    auto o = std::make_shared<Options>();
    cmd->add_option("files", o->files, "PGN files ('-' = standard input; .zst is decompressed)")->required();
    cmd->add_option("--rules", o->rules,
                    "A rule set for every game, or auto (default: from each game's Date and Site tags)");
    cmd->add_option("--threads", o->threads, "Worker threads (default: all cores)");
    cmd->add_option("--format", o->format,
                    "jsonl (default: one object per game), csv (one row per finding) or summary");
    cmd->add_option("--output", o->output, "Write to this file instead of standard output");
    cmd->add_option("--time-category", o->time_category,
                    "standard, rapid or blitz for every game (default: from each game's TimeControl tag)");
    cmd->add_flag("--quiet", o->quiet, "No progress line on stderr");
    cmd->add_option("--batch-bytes", o->batch_bytes, "Approximate bytes of PGN per unit of work (tests)")
        ->group("")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 30));
    cmd->add_flag("--json", o->json, "With --format summary: the summary as one JSON object");
    cmd->callback([o] {
        Config cfg;
        cfg.files = o->files;
        cfg.several_files = o->files.size() > 1;
        cfg.batch_bytes = o->batch_bytes;
        if (o->format == "jsonl")
            cfg.format = AuditFormat::jsonl;
        else if (o->format == "csv")
            cfg.format = AuditFormat::csv;
        else if (o->format == "summary")
            cfg.format = AuditFormat::summary;
        else
            throw InputError("--format: expected jsonl, csv or summary, found '" + o->format + "'");
        if (o->rules != "auto") {
            const auto id = parse_rule_set(o->rules);
            if (!id) throw InputError("--rules: unknown rule set '" + o->rules + "' (expected auto or a rule-set id)");
            cfg.options.rules = *id;
        }
        if (!o->time_category.empty()) {
            const auto tc = parse_time_category(o->time_category);
            if (!tc)
                throw InputError("--time-category: expected standard, rapid or blitz, found '" + o->time_category +
                                 "'");
            cfg.options.rule_options.time_category = *tc;
            cfg.options.time_category_from_tag = false;
        }
        unsigned threads = o->threads ? o->threads : std::max(1u, std::thread::hardware_concurrency());
        if (threads > 256) throw InputError("--threads: at most 256");
        std::ofstream file;
        if (!o->output.empty()) {
            file.open(o->output, std::ios::binary);
            if (!file) throw InputError("--output: cannot write '" + o->output + "'");
        }
        std::ostream& out = o->output.empty() ? std::cout : file;
        const bool progress = !o->quiet && isatty(STDERR_FILENO);
        Pipeline pipeline(cfg, out, threads, progress);
        const bool ok = pipeline.run();
        if (cfg.format == AuditFormat::summary)
            print_summary(out, pipeline.counts(), pipeline.seconds(), pipeline.bytes(), o->json);
        out.flush();
        if (!ok) throw InputError("some input could not be read to its end (see above)");
        if (pipeline.counts().games == 0) throw InputError("no game found in the input: nothing to audit");
    });
}

}  // namespace arbiter::cli
