// pgn_game.cpp — GameReader: a Visitor that replays the mainline of each game.
#include "arbiter/pgn_game.hpp"

#include "arbiter/fen.hpp"
#include "arbiter/notation.hpp"
#include "arbiter/text.hpp"

namespace arbiter::pgn {

namespace {

bool iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = static_cast<char>(x + 32);
        if (y >= 'A' && y <= 'Z') y = static_cast<char>(y + 32);
        if (x != y) return false;
    }
    return true;
}

// `text` as UTF-8: unchanged when it is UTF-8, else read as Latin-1 (ISO 8859-1, what old PGN
// files are written in), every byte its own code point. Returns whether it was converted.
bool to_utf8(std::string_view text, std::string& out) {
    std::size_t i = 0;
    while (i < text.size() && static_cast<unsigned char>(text[i]) < 0x80) ++i;  // ASCII, the common case
    while (i < text.size()) {
        const std::size_t n = utf8_length_at(text, i);
        if (n == 0) break;
        i += n;
    }
    if (i == text.size()) return false;
    out.clear();
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x80) {
            out += ch;
        } else {
            out += static_cast<char>(0xC0 | (c >> 6));
            out += static_cast<char>(0x80 | (c & 0x3F));
        }
    }
    return true;
}

bool is_null_move(std::string_view t) noexcept { return t == "--" || t == "Z0" || t == "0000" || t == "@@@@"; }

// Long algebraic notation ("g1-f3", "Ng1-f3", "d6xe5", "e7-e8=Q") as UCI text ("g1f3"), or empty.
std::string_view long_algebraic_as_uci(std::string_view t, char (&out)[6]) noexcept {
    auto file = [](char c) { return c >= 'a' && c <= 'h'; };
    auto rank = [](char c) { return c >= '1' && c <= '8'; };
    if (!t.empty() && (t[0] == 'K' || t[0] == 'Q' || t[0] == 'R' || t[0] == 'B' || t[0] == 'N' || t[0] == 'P'))
        t.remove_prefix(1);
    while (!t.empty() && (t.back() == '+' || t.back() == '#')) t.remove_suffix(1);
    if (t.size() < 5 || !file(t[0]) || !rank(t[1]) || (t[2] != '-' && t[2] != 'x' && t[2] != ':') || !file(t[3]) ||
        !rank(t[4]))
        return {};
    out[0] = t[0], out[1] = t[1], out[2] = t[3], out[3] = t[4];
    std::size_t n = 4;
    std::string_view rest = t.substr(5);
    if (!rest.empty() && rest[0] == '=') rest.remove_prefix(1);
    if (rest.size() == 1 && (rest[0] == 'Q' || rest[0] == 'R' || rest[0] == 'B' || rest[0] == 'N'))
        out[n++] = static_cast<char>(rest[0] + 32);
    else if (!rest.empty())
        return {};
    return std::string_view(out, n);
}

bool uci_shaped(std::string_view t) noexcept {
    auto file = [](char c) { return c >= 'a' && c <= 'h'; };
    auto rank = [](char c) { return c >= '1' && c <= '8'; };
    return (t.size() == 4 || t.size() == 5) && file(t[0]) && rank(t[1]) && file(t[2]) && rank(t[3]);
}

}  // namespace

VariantKind classify_variant(std::string_view v) noexcept {
    while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
    while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
    if (v.empty() || iequals(v, "standard") || iequals(v, "chess") || iequals(v, "normal") ||
        iequals(v, "from position") || iequals(v, "fromposition") || iequals(v, "classical"))
        return VariantKind::standard;
    static constexpr std::string_view c960[] = {"chess960",       "chess 960",     "960", "fischerandom",
                                                "fischer random", "fischerrandom", "frc"};
    for (std::string_view n : c960)
        if (iequals(v, n)) return VariantKind::chess960;
    return VariantKind::other;
}

std::size_t ParsedGame::tag_index(std::string_view name) const noexcept {
    for (std::size_t i = 0; i < tags_.size(); ++i)
        if (tag_at(i).name == name) return i;
    return tags_.size();
}

std::optional<std::string_view> ParsedGame::tag(std::string_view name) const noexcept {
    const std::size_t i = tag_index(name);
    if (i == tags_.size()) return std::nullopt;
    return tag_at(i).value;
}

void ParsedGame::clear() {
    index = 0;
    pos = {};
    has_start = false;
    plies.clear();
    complete = true;
    movetext_skipped = false;
    result.clear();
    result_pos = {};
    errors.clear();
    warnings.clear();
    san_text.clear();
    after.clear();
    tags_.clear();
    tag_text_.clear();
}

void ParsedGame::add_tag(std::string_view name, std::string_view value) {
    TagRef r;
    r.name = static_cast<std::uint32_t>(tag_text_.size());
    r.name_size = static_cast<std::uint32_t>(name.size());
    tag_text_ += name;
    r.value = static_cast<std::uint32_t>(tag_text_.size());
    r.value_size = static_cast<std::uint32_t>(value.size());
    tag_text_ += value;
    tags_.push_back(r);
}

struct GameReader::Impl final : Visitor {
    Reader reader;
    GameReaderOptions opt;
    ParsedGame* g = nullptr;
    bool prepared = false;
    bool stopped = false;     // no more mainline moves are played
    bool after_move = false;  // the last mainline token was a move (comments attach to it)
    Position pos;
    SourcePos fen_pos, variant_pos;
    bool has_fen = false, has_variant = false, has_setup = false, has_result_tag = false, fen_conflict = false;
    std::string fen, variant, setup, result_tag;
    std::string converted;  // a tag value converted to UTF-8

    Impl(ByteSource& src, GameReaderOptions o) : reader(src, o.reader), opt(o) {}

    void add_error(Error::Code code, SourcePos p, std::string message, std::string_view token = {}) {
        g->errors.push_back(Error{code, p, std::move(message), std::string(token)});
    }

    void begin_game(std::uint64_t index, SourcePos p) override {
        g->clear();
        g->index = index;
        g->pos = p;
        prepared = false;
        stopped = false;
        after_move = false;
        has_fen = has_variant = has_setup = has_result_tag = fen_conflict = false;
    }

    void tag(std::string_view name, std::string_view raw, SourcePos p) override {
        // Text enters the library here: a value that is not UTF-8 is read as Latin-1, and said so.
        std::string_view value = raw;
        if (to_utf8(raw, converted)) {
            value = converted;
            g->warnings.push_back(
                Error{Error::Code::not_utf8,
                      p,
                      "tag " + std::string(name) + ": the value is not UTF-8; it was read as Latin-1 (ISO 8859-1)",
                      {}});
        }
        // The tags that decide how the game is read or scored may appear once; a second one with
        // another value makes the game ambiguous (a second FEN: it is not replayed at all).
        auto once = [&](bool& seen, std::string& first, SourcePos& first_pos) {
            if (!seen) {
                seen = true;
                first.assign(value);
                first_pos = p;
            } else if (value != first) {
                add_error(Error::Code::duplicate_tag, p,
                          "second " + std::string(name) + " tag \"" + std::string(value) + "\" after \"" + first +
                              "\" (line " + std::to_string(first_pos.line) + ")" +
                              (name == "FEN" ? ": the start position is ambiguous, the game is not replayed"
                                             : ": the first one is used"));
                if (name == "FEN") fen_conflict = true;
                g->complete = false;
            }
        };
        g->add_tag(name, value);
        SourcePos ignored;
        if (name == "FEN")
            once(has_fen, fen, fen_pos);
        else if (name == "Variant")
            once(has_variant, variant, variant_pos);
        else if (name == "SetUp")
            once(has_setup, setup, ignored);
        else if (name == "Result")
            once(has_result_tag, result_tag, ignored);
    }

    // Sets up the start position from the tags, once, before the first move.
    void prepare() {
        if (prepared) return;
        prepared = true;
        const VariantKind kind = has_variant ? classify_variant(variant) : VariantKind::standard;
        if (kind == VariantKind::other) {
            add_error(Error::Code::unsupported_variant, variant_pos, "variant '" + variant + "' is not supported");
            stopped = true;
            g->complete = false;
            return;
        }
        if (fen_conflict || (has_setup && setup == "1" && !has_fen)) {
            if (!fen_conflict)
                add_error(Error::Code::missing_fen, g->pos,
                          "SetUp \"1\" without a FEN tag: the start position is unknown, the game is not replayed");
            stopped = true;
            g->complete = false;
            return;
        }
        if (has_fen) {
            FenReadOptions fo;
            fo.tolerant = true;
            fo.chess960 = kind == VariantKind::chess960;
            SetupRepairs repairs;
            repairs.drop_invalid_ep_square = true;
            repairs.drop_invalid_castling = true;
            auto p = position_from_fen(fen, fo, repairs);
            if (!p) {
                add_error(Error::Code::bad_fen, fen_pos, p.error().describe());
                stopped = true;
                g->complete = false;
                return;
            }
            pos = *p;
        } else {
            pos = Position();
        }
        g->start = pos;
        g->end = pos;
        g->has_start = true;
    }

    Skip begin_movetext() override {
        prepare();
        if (opt.wants_movetext && !opt.wants_movetext(*g)) {
            g->movetext_skipped = true;
            stopped = true;
            return Skip::yes;
        }
        return Skip::no;
    }

    Skip begin_variation(SourcePos) override {
        after_move = false;
        return Skip::yes;
    }

    void san(std::string_view text, SourcePos p) override {
        after_move = false;
        if (stopped) return;
        prepare();
        if (stopped) return;
        auto stop = [&](Error::Code code, std::string message) {
            add_error(code, p, std::move(message), text);
            stopped = true;
            g->complete = false;
        };
        if (is_null_move(text)) return stop(Error::Code::null_move, "null move '" + std::string(text) + "'");
        auto m = parse_san(pos, text);
        if (!m && opt.accept_uci) {
            char buf[6];
            std::string_view uci = uci_shaped(text) ? text : long_algebraic_as_uci(text, buf);
            if (!uci.empty()) {
                auto u = parse_uci(pos, uci);
                if (u && (text[0] < 'A' || text[0] > 'Z' || piece_letter(type_of(pos.piece_at(u->from()))) == text[0]))
                    m = u;
            }
        }
        if (!m) {
            const auto& e = m.error();
            const Error::Code code = e.kind == MoveError::Kind::syntax    ? Error::Code::bad_move_syntax
                                     : e.kind == MoveError::Kind::illegal ? Error::Code::illegal_move
                                                                          : Error::Code::ambiguous_move;
            return stop(code, e.message);
        }
        // Built in place (a Ply put together on the stack and copied over was read back as whole
        // 16 bytes right after its fields were written one by one: a stall at every ply).
        Ply& ply = g->plies.emplace_back();
        ply.move = *m;
        ply.san_offset = static_cast<std::uint32_t>(g->san_text.size());
        ply.san_size = static_cast<std::uint32_t>(text.size());
        ply.pos = p;
        g->san_text += text;
        pos.play_unchecked(*m);
        if (opt.keep_positions) g->after.push_back(pos);
        after_move = true;
    }

    void comment(std::string_view text, const CommentInfo& info) override {
        if (!after_move || g->plies.empty()) return;
        Ply& last = g->plies.back();
        if (text.find("(=)") != std::string_view::npos) last.offer = true;
        if (info.clk_ms >= 0) last.clk_ms = info.clk_ms;
        if (info.emt_ms >= 0) last.emt_ms = info.emt_ms;
    }

    void result(std::string_view text, SourcePos p) override {
        g->result.assign(text);
        g->result_pos = p;
    }

    void error(const Error& e) override {
        g->errors.push_back(e);
        g->complete = false;
    }

    void end_game() override {
        prepare();
        if (g->has_start) g->end = pos;
    }
};

GameReader::GameReader(ByteSource& source, GameReaderOptions options)
    : impl_(std::make_unique<Impl>(source, options)) {}
GameReader::~GameReader() = default;

bool GameReader::next(ParsedGame& game) {
    impl_->g = &game;
    const bool got = impl_->reader.read_game(*impl_);
    impl_->g = nullptr;
    return got;
}

const Reader& GameReader::reader() const noexcept { return impl_->reader; }

}  // namespace arbiter::pgn
