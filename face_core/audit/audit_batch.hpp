// audit_batch.hpp — the audit of one run of whole games cut from an input (a batch): the games
// read from the batch's text (or, for a batch too long to hold, from a stream of its parts),
// each audited, filtered (--select, --only) and formatted as a record (jsonl, csv); the games
// with findings copied out as PGN. The threaded pipeline (audit_pipeline.hpp), the Python module
// and the distributed audit (audit_piece, audit_output.hpp) all audit through it.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/audit.hpp"
#include "arbiter/input.hpp"
#include "arbiter/pgn.hpp"
#include "arbiter/pgn_game.hpp"
#include "audit/audit_output.hpp"

namespace arbiter::face {

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
    // The batch's text, or the stream's part at hand, read in place (not while bytes are held).
    std::string_view lend() override {
        if (hold_) return {};
        const std::string_view rest = text_.substr(at_);
        at_ = text_.size();
        return rest;
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
    const std::string* name = nullptr;         // the input's name (the records' "file")
};

struct BatchResult {
    // Per game (jsonl, csv), without the leading game number; nullopt for a game --select leaves out.
    std::vector<std::optional<std::string>> lines;
    AuditCounts counts;
    std::size_t file = 0;
    std::string pgn;  // --pgn-out: the games with findings
    std::uint64_t pgn_games = 0;
    std::uint64_t games_read = 0;  // selected or not
    // The pipeline's, after the records: the read error that ended the input (`opened` false: it
    // could not be opened, and there is no batch), and an exception to rethrow in its turn.
    std::optional<arbiter::InputError> input_error;
    bool opened = true;
    std::exception_ptr stop;
};

struct AuditConfig {
    AuditFormat format = AuditFormat::jsonl;
    AuditFilter filter;
    bool pgn_out = false;
    audit::AuditOptions options;
    std::vector<std::string> files;
    std::size_t batch_bytes = 1 << 20;
    std::uint64_t batch_games = 0;    // a batch ends after this many games too (0: by bytes only)
    bool stop_at_read_error = false;  // no input is read after one that failed (Python's errors="raise")
    std::uint32_t max_plies = pgn::ReaderOptions{}.max_game_plies;
    bool relative_positions = false;  // GameSource::relative
};

// Audits the games of one batch; `each(game, result, selected)` is called for every game in order
// (`selected`: --select keeps it; its findings are those --only keeps). With --pgn-out, the games
// with findings are appended to `pgn` as each game's end becomes known (a game ends where the next
// one starts), and `pgn_games` counts them.
template <class Each>
void audit_batch(const Batch& b, const AuditConfig& cfg, GameRecord& record, pgn::ParsedGame& game, std::string& pgn,
                 std::uint64_t& pgn_games, Each&& each) {
    BatchSource src(b.text, b.stream.get(), b.error, *b.name, cfg.pgn_out && b.stream);
    pgn::GameReaderOptions ro;
    ro.keep_positions = true;  // audit_game replays each game without making the moves again
    ro.reader.input_continues = b.ends_at_boundary;
    ro.reader.max_game_plies = cfg.max_plies;
    // A game that --select leaves out is read through to its end and nothing more: its moves are
    // neither resolved nor audited (nothing of it is written or counted but the game itself).
    if (!cfg.filter.select.empty())
        ro.wants_movetext = [&cfg](const pgn::ParsedGame& g) { return cfg.filter.selects(g); };
    pgn::GameReader reader(src, ro);
    PgnOut out;
    out.bytes_may_go = b.stream != nullptr;
    // The input the PGN writer can copy from: a batch's text, or what a stream still holds.
    const auto window = [&] { return b.stream ? src.held() : std::string_view(b.text); };
    const auto window_start = [&] { return b.stream ? src.held_start() : std::uint64_t{0}; };
    while (reader.next(game)) {
        const bool selected = cfg.filter.selects(game);
        audit::GameAudit result;
        if (selected) {
            result = audit::audit_game(game, cfg.options, record);
            cfg.filter.apply(result);
        }
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
std::string format_game(const Batch& b, const AuditConfig& cfg, const pgn::ParsedGame& game,
                        const audit::GameAudit& result);

}  // namespace arbiter::face
