// Fuzz target for the PGN reader, the GameReader and the game-boundary finder: any bytes must be
// read without a crash, a sanitizer report or unbounded work, and these must hold:
// - every game that begins ends; positions are 1-based and offsets never go back;
// - the moves the GameReader replays are legal and lead to its end position, and the audit of
//   each game (audit_game) reports findings only at plies of that game;
// - BoundaryFinder, fed the input a few bytes at a time and cut at each boundary as the batch
//   audit does, finds exactly the offsets where is_game_boundary holds;
// - the pieces cut there, each read on its own, give the same games, tokens, errors and offsets
//   as the whole input, whatever the read chunk size.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/audit.hpp"
#include "arbiter/movegen.hpp"
#include "arbiter/pgn.hpp"
#include "arbiter/pgn_game.hpp"
#include "fuzz_check.hpp"

namespace {

using namespace arbiter;
using namespace arbiter::pgn;

struct Checker : Visitor {
    bool open = false;
    std::uint64_t last_offset = 0;
    int depth = 0;
    void at(SourcePos p) {
        FUZZ_CHECK(p.line >= 1 && p.column >= 1);
        FUZZ_CHECK(p.offset >= last_offset);
        last_offset = p.offset;
    }
    void begin_game(std::uint64_t, SourcePos p) override {
        FUZZ_CHECK(!open);
        open = true;
        depth = 0;
        at(p);
    }
    void san(std::string_view t, SourcePos p) override {
        FUZZ_CHECK(!t.empty());
        at(p);
    }
    Skip begin_variation(SourcePos p) override {
        at(p);
        ++depth;
        // Skip every third level, so both paths run.
        return depth % 3 == 0 ? Skip::yes : Skip::no;
    }
    void end_variation() override { --depth; }
    void error(const Error& e) override {
        FUZZ_CHECK(open);
        FUZZ_CHECK(code_name(e.code) != nullptr);
    }
    void end_game() override {
        FUZZ_CHECK(open);
        open = false;
    }
};

// Every visitor call as text, with offsets from the start of the whole input.
struct Trace : Visitor {
    std::string out;
    std::uint64_t base = 0;
    void at(SourcePos p) { out += "@" + std::to_string(p.offset + base) + "\n"; }
    void begin_game(std::uint64_t, SourcePos p) override {
        out += "game";
        at(p);
    }
    void tag(std::string_view n, std::string_view v, SourcePos p) override {
        out += "tag " + std::string(n) + "=" + std::string(v);
        at(p);
    }
    void san(std::string_view t, SourcePos p) override {
        out += "san " + std::string(t);
        at(p);
    }
    void nag(int n, SourcePos p) override {
        out += "nag " + std::to_string(n);
        at(p);
    }
    void comment(std::string_view t, const CommentInfo& info) override {
        out += "comment " + std::string(t) + (info.truncated ? " cut" : "") + " clk " + std::to_string(info.clk_ms) +
               " emt " + std::to_string(info.emt_ms);
        at(info.pos);
    }
    Skip begin_variation(SourcePos p) override {
        out += "(";
        at(p);
        return Skip::no;
    }
    void end_variation() override { out += ")\n"; }
    void result(std::string_view t, SourcePos p) override {
        out += "result " + std::string(t);
        at(p);
    }
    void error(const Error& e) override {
        out += std::string("error ") + code_name(e.code) + " " + e.message + " " + e.token;
        at(e.pos);
    }
    void end_game() override { out += "end\n"; }
};

std::string trace(std::string_view text, ReaderOptions o, std::uint64_t base, std::size_t chunk) {
    InputOptions io;
    io.chunk_size = chunk;
    io.compression = InputOptions::Compression::plain;  // boundaries are offsets in the text
    auto src = memory_input(text, io);
    Reader reader(*src, o);
    Trace t;
    t.base = base;
    reader.read_all(t);
    return t.out;
}

// `compression`: detect reads compressed input and refuses binary data; plain reads every byte.
void check_reader(std::string_view text, InputOptions::Compression compression) {
    ReaderOptions small;
    small.max_comment_bytes = 64;
    small.max_game_tokens = 5000;
    InputOptions tiny;
    tiny.chunk_size = 64;  // tokens often straddle reads
    tiny.compression = compression;
    auto src = memory_input(text, tiny);
    Reader reader(*src, small);
    Checker c;
    const std::uint64_t games = reader.read_all(c);
    FUZZ_CHECK(!c.open);
    FUZZ_CHECK(games == reader.games());
    if (compression == InputOptions::Compression::plain) FUZZ_CHECK(reader.bytes() == text.size());
}

void check_game_reader(std::string_view text) {
    GameReaderOptions o;
    o.reader.max_game_plies = 300;
    auto src = memory_input(text);
    GameReader reader(*src, o);
    ParsedGame g;
    GameRecord record;
    while (reader.next(g)) {
        if (!g.has_start) continue;
        Position pos = g.start;
        for (const auto& ply : g.plies) {
            FUZZ_CHECK(pos.is_legal(ply.move));
            pos.play_unchecked(ply.move);
        }
        FUZZ_CHECK(pos == g.end);
        FUZZ_CHECK(g.plies.size() <= o.reader.max_game_plies);
        // The audit replays the same mainline; its findings are about positions of the game.
        const audit::GameAudit a = audit::audit_game(g, audit::AuditOptions{}, record);
        FUZZ_CHECK(a.rules != nullptr);
        FUZZ_CHECK(a.plies <= g.plies.size());
        const std::uint32_t first = record.game_ply(0);
        for (const audit::Finding& f : a.findings) {
            FUZZ_CHECK(finding_type_name(f.type) != nullptr);
            FUZZ_CHECK(f.ply >= first && f.ply <= first + a.plies + 1);
        }
    }
}

// The boundaries as the batch audit finds them: the input arrives `step` bytes at a time; after
// each boundary found, the text before it is cut away.
std::vector<std::size_t> boundaries_found(std::string_view text, std::size_t step) {
    std::vector<std::size_t> out;
    BoundaryFinder finder;
    std::size_t start = 0;  // offset of the buffer's first byte in `text`
    for (std::size_t have = std::min(step, text.size());; have = std::min(have + step, text.size())) {
        for (;;) {
            const std::size_t b = finder.find(text.substr(start, have - start), 1);
            if (b == std::string_view::npos) break;
            FUZZ_CHECK(b >= 1 && start + b < have);
            start += b;
            out.push_back(start);
            finder.reset();
        }
        if (have == text.size()) return out;
    }
}

void check_boundaries(std::string_view text) {
    std::vector<std::size_t> expected;
    for (std::size_t i = 1; i < text.size(); ++i)
        if (is_game_boundary(text, i)) expected.push_back(i);
    for (std::size_t step : {std::size_t(1), std::size_t(7), std::size_t(1) << 20})
        FUZZ_CHECK(boundaries_found(text, step) == expected);

    ReaderOptions o;
    o.max_comment_bytes = 100;
    o.max_game_bytes = 1500;
    o.max_tag_bytes = 100;
    o.max_game_tokens = 300;
    o.max_game_plies = 40;
    const std::string whole = trace(text, o, 0, 64);
    std::string pieces;
    std::size_t start = 0;
    expected.push_back(text.size());
    for (std::size_t end : expected) {
        ReaderOptions po = o;
        po.input_continues = end < text.size();
        pieces += trace(text.substr(start, end - start), po, start, 1 << 16);
        start = end;
    }
    FUZZ_CHECK(whole == pieces);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    check_reader(text, InputOptions::Compression::detect);
    check_reader(text, InputOptions::Compression::plain);
    check_game_reader(text);
    check_boundaries(text);
    return 0;
}
