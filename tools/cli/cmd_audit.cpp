// cmd_audit.cpp — `arbiter audit`: streams PGN (files, stdin, .pgn.zst), splits the input into
// batches at game boundaries, audits the batches on N threads, and writes one result per game in
// input order (jsonl, csv) or a summary. Memory stays flat: a bounded number of batches is in
// flight at any time.
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

#include "cli.hpp"
#include "rules_json.hpp"

namespace arbiter::cli {

namespace {

using audit::Finding;
using audit::FindingType;

enum class Format { jsonl, csv, summary };

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

struct Counts {
    std::uint64_t games = 0, plies = 0, games_with_errors = 0, errors = 0, games_with_findings = 0;
    std::map<std::string, std::uint64_t> findings;  // "type" and "type/kind"
    void add(const Counts& o) {
        games += o.games;
        plies += o.plies;
        games_with_errors += o.games_with_errors;
        errors += o.errors;
        games_with_findings += o.games_with_findings;
        for (const auto& [k, v] : o.findings) findings[k] += v;
    }
};

struct BatchResult {
    std::vector<std::string> lines;  // per game, without the leading game number
    Counts counts;
    std::size_t file = 0;
};

// Finds where to cut the input between two games: at a line "[Event " that follows a blank
// line. The reader starts a new game there whatever came before — after movetext, after a tag
// section, and even inside a `{` comment left open (a blank line followed by a tag ends it) —
// so a batch boundary there reads exactly as the serial reader would. Only the text from
// `min_size` on is searched, so splitting costs next to nothing.
class Splitter {
public:
    // Returns the offset of a cut at or after `min_size`, or npos when none is in `text` yet.
    std::size_t find_cut(std::string_view text, std::size_t min_size) {
        static constexpr std::string_view marker = "\n[Event ";
        std::size_t from = std::max(scanned_, min_size > 0 ? min_size - 1 : 0);
        for (;;) {
            const std::size_t at = text.find(marker, from);
            if (at == std::string_view::npos) {
                scanned_ = text.size() >= marker.size() ? std::max(from, text.size() - marker.size()) : from;
                return std::string_view::npos;
            }
            // Is the line before the '\n' at `at` blank?
            std::size_t k = at;
            while (k > 0 && (text[k - 1] == ' ' || text[k - 1] == '\t' || text[k - 1] == '\r')) --k;
            if (k > 0 && text[k - 1] == '\n') {
                scanned_ = 0;
                return at + 1;
            }
            from = at + 1;
        }
    }
    // The text before the cut was removed: positions shift.
    void reset_after_cut() { scanned_ = 0; }

private:
    std::size_t scanned_ = 0;
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

void json_escape_into(std::string& out, std::string_view s) {
    out += Json(std::string(s)).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string csv_field(std::string_view s) {
    if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

const char* side_or_empty(const std::optional<Color>& c) { return c ? (*c == Color::white ? "white" : "black") : ""; }

struct Config {
    Format format = Format::jsonl;
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
        Counts& c = out.counts;
        ++c.games;
        c.plies += result.plies;
        c.errors += game.errors.size();
        c.games_with_errors += game.errors.empty() ? 0 : 1;
        c.games_with_findings += result.findings.empty() ? 0 : 1;
        for (const auto& f : result.findings) {
            ++c.findings[audit::finding_type_name(f.type)];
            ++c.findings[std::string(audit::finding_type_name(f.type)) + "/" + f.kind];
        }
        if (cfg.format == Format::summary) continue;
        auto line_of = [&](const pgn::SourcePos& p) { return p.line + b.first_line - 1; };
        std::string line;
        if (cfg.format == Format::jsonl) {
            if (cfg.several_files) {
                line += ",\"file\":";
                json_escape_into(line, cfg.files[b.file]);
            }
            line += ",\"tags\":{";
            for (std::size_t t = 0; t < game.tag_count(); ++t) {
                const auto tag = game.tag_at(t);
                if (t) line += ',';
                json_escape_into(line, tag.name);
                line += ':';
                json_escape_into(line, tag.value);
            }
            line += "},\"rules\":\"";
            line += result.rules->name;
            line += "\",\"time_category\":\"";
            line += time_category_name(result.time_category);
            line += "\",\"plies\":" + std::to_string(result.plies) + ",\"result\":";
            json_escape_into(line, game.result);
            line += ",\"findings\":[";
            for (std::size_t k = 0; k < result.findings.size(); ++k) {
                const Finding& f = result.findings[k];
                if (k) line += ',';
                line += "{\"type\":\"";
                line += audit::finding_type_name(f.type);
                line += "\",\"kind\":";
                json_escape_into(line, f.kind);
                line += ",\"ply\":" + std::to_string(f.ply) + ",\"side\":";
                line += f.side ? std::string("\"") + side_or_empty(f.side) + "\"" : "null";
                line += ",\"article\":";
                json_escape_into(line, f.article);
                line += ",\"detail\":";
                json_escape_into(line, f.detail);
                line += '}';
            }
            line += "],\"errors\":[";
            for (std::size_t k = 0; k < game.errors.size(); ++k) {
                const auto& e = game.errors[k];
                if (k) line += ',';
                line += "{\"line\":" + std::to_string(line_of(e.pos)) + ",\"column\":" + std::to_string(e.pos.column) +
                        ",\"offset\":" + std::to_string(e.pos.offset + b.first_offset) + ",\"code\":\"" +
                        pgn::code_name(e.code) + "\",\"message\":";
                json_escape_into(line, e.message);
                line += '}';
            }
            line += "]}\n";
        } else {
            auto tag = [&](const char* name) { return csv_field(game.tag(name).value_or("")); };
            const std::string prefix = "," + csv_field(cfg.files[b.file]) + "," + tag("White") + "," + tag("Black") +
                                       "," + tag("Date") + "," + csv_field(game.result) + "," + result.rules->name +
                                       "," + std::to_string(result.plies) + ",";
            for (const auto& f : result.findings)
                line += prefix + audit::finding_type_name(f.type) + "," + csv_field(f.kind) + "," +
                        std::to_string(f.ply) + "," + side_or_empty(f.side) + "," + csv_field(f.article) + "," +
                        csv_field(f.detail) + "\n";
            for (const auto& e : game.errors)
                line += prefix + "error," + pgn::code_name(e.code) + ",,,," +
                        csv_field("line " + std::to_string(line_of(e.pos)) + ", column " +
                                  std::to_string(e.pos.column) + ": " + e.message) +
                        "\n";
        }
        out.lines.push_back(std::move(line));
    }
    return out;
}

class Pipeline {
public:
    Pipeline(const Config& cfg, std::ostream& out, unsigned threads, bool progress)
        : cfg_(cfg), out_(out), threads_(threads), progress_(progress) {}

    // Returns false when an input could not be read to its end.
    bool run() {
        if (cfg_.format == Format::csv)
            out_ << "game,file,white,black,date,result,rules,plies,type,kind,ply,side,article,detail\n";
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

    const Counts& counts() const { return total_; }
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
        Splitter splitter;
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
                const std::size_t cut = splitter.find_cut(pending, batch_bytes);
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
                splitter.reset_after_cut();
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
                for (const auto& l : ready.lines) {
                    ++games_written_;
                    if (cfg_.format == Format::jsonl)
                        out_ << "{\"game\":" << games_written_ << l;
                    else if (!l.empty()) {
                        // one CSV row per finding: each row starts with the game number
                        std::size_t start = 0;
                        while (start < l.size()) {
                            const std::size_t end = l.find('\n', start);
                            out_ << games_written_ << l.substr(start, end - start + 1);
                            start = end + 1;
                        }
                    }
                }
                games_written_ += cfg_.format == Format::summary ? ready.counts.games : 0;
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
    Counts total_;
    std::uint64_t bytes_read_ = 0, total_bytes_ = 0, consumed_before_ = 0;
    std::chrono::steady_clock::time_point start_, last_progress_{};
};

void print_summary(std::ostream& out, const Counts& c, double seconds, std::uint64_t bytes, bool json) {
    const double rate = seconds > 0 ? static_cast<double>(c.games) / seconds : 0;
    if (json) {
        Json j;
        j["games"] = c.games;
        j["plies"] = c.plies;
        j["games_with_findings"] = c.games_with_findings;
        j["games_with_errors"] = c.games_with_errors;
        j["errors"] = c.errors;
        Json f = Json::object();
        for (const auto& [k, v] : c.findings) f[k] = v;
        j["findings"] = f;
        j["seconds"] = seconds;
        j["games_per_second"] = rate;
        j["bytes"] = bytes;
        out << j.dump() << '\n';
        return;
    }
    out << "games              " << c.games << "\n";
    out << "plies              " << c.plies << "\n";
    out << "games with findings " << c.games_with_findings << "\n";
    out << "games with errors  " << c.games_with_errors << " (" << c.errors << " errors)\n";
    out << "findings\n";
    for (const char* t : {"missed_automatic_draw", "result_contradicts_position", "timeout_unwinnable", "claimable"}) {
        const auto it = c.findings.find(t);
        out << "  " << t << ": " << (it == c.findings.end() ? 0 : it->second) << "\n";
        for (const auto& [k, v] : c.findings)
            if (k.size() > std::strlen(t) && k.compare(0, std::strlen(t), t) == 0 && k[std::strlen(t)] == '/')
                out << "    " << k.substr(std::strlen(t) + 1) << ": " << v << "\n";
    }
    char buf[128];
    std::snprintf(buf, sizeof buf, "time               %.2f s, %.0f games/s, %.1f MB/s\n", seconds, rate,
                  seconds > 0 ? static_cast<double>(bytes) / seconds / 1e6 : 0.0);
    out << buf;
}

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
            cfg.format = Format::jsonl;
        else if (o->format == "csv")
            cfg.format = Format::csv;
        else if (o->format == "summary")
            cfg.format = Format::summary;
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
        if (cfg.format == Format::summary)
            print_summary(out, pipeline.counts(), pipeline.seconds(), pipeline.bytes(), o->json);
        out.flush();
        if (!ok) throw InputError("some input could not be read to its end (see above)");
    });
}

}  // namespace arbiter::cli
