// Fuzz target for session events: the first line is a configuration in the journal's text form
// (when it starts with "session"; else the default configuration is used and the line is an
// event), every further line an event, as JSON (`arbiter session event`, a line starting with
// '{') or in the journal's text form. These must hold:
// - a decoded configuration or event encodes to text that decodes to the same value and encodes
//   to the same text again (what the journal stores reads back unchanged); a JSON event too,
//   and a JSON event writes JSON (`session export --json`) that reads back to it;
// - a refused event leaves the session exactly as it was (summary and count of events); nothing
//   is accepted once the game has ended, and an ended game has a result;
// - the state writes as JSON without throwing, the PGN export reads back as one game with the
//   same moves, and replaying the accepted events on a new session gives the same state and
//   digest (what the journal's replay check relies on).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "arbiter/pgn_game.hpp"
#include "arbiter/scoresheet.hpp"
#include "arbiter/session.hpp"
#include "errors.hpp"
#include "fuzz_check.hpp"
#include "session/session_json.hpp"

namespace {

using namespace arbiter;

void check_config_codec(const SessionConfig& c) {
    const std::string text = encode(c);
    auto again = decode_config(text);
    FUZZ_CHECK(again.has_value());
    FUZZ_CHECK(encode(*again) == text);
    FUZZ_CHECK(*again == c);
}

void check_event_codec(const Event& e) {
    const std::string text = encode(e);
    auto again = decode_event(text);
    FUZZ_CHECK(again.has_value());
    FUZZ_CHECK(*again == e);
    FUZZ_CHECK(encode(*again) == text);
}

// An event read from JSON writes (`session export --json`) JSON that reads back to it.
void check_event_json(const Event& e) {
    try {
        FUZZ_CHECK(face::event_from_json(face::dump(face::event_to_json(e))) == e);
    } catch (const face::InputError& err) {
        fuzz::invariant_failed(err.message().c_str(), __FILE__, __LINE__);
    }
}

void check_refusal(const EventError& e) {
    FUZZ_CHECK(code_name(e.code) != nullptr);
    FUZZ_CHECK(!e.message.empty());
}

// The exported PGN is one game whose mainline is the session's.
void check_export(const Session& s) {
    const std::string pgn = export_pgn(s);
    auto src = memory_input(pgn);
    pgn::GameReader reader(*src);
    pgn::ParsedGame g;
    FUZZ_CHECK(reader.next(g));
    FUZZ_CHECK(g.errors.empty());
    FUZZ_CHECK(g.has_start);
    const GameRecord& rec = s.record();
    FUZZ_CHECK(g.start.same_position(rec.position(0)));
    FUZZ_CHECK(g.plies.size() == rec.plies_played());
    for (std::size_t i = 0; i < g.plies.size(); ++i) FUZZ_CHECK(g.plies[i].move == rec.move(i + 1));
    FUZZ_CHECK(!reader.next(g));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string_view> lines;
    while (!text.empty() && lines.size() < 200) {
        const std::size_t nl = text.find('\n');
        lines.push_back(text.substr(0, nl));
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    }
    SessionConfig config;
    std::size_t first_event = 0;
    if (!lines.empty() && lines[0].starts_with("session")) {
        first_event = 1;
        auto c = decode_config(lines[0]);
        if (!c) {
            check_refusal(c.error());
            return 0;
        }
        check_config_codec(*c);
        config = *c;
    }
    auto session = Session::create(config);
    if (!session) {
        FUZZ_CHECK(session.error().code == EventError::Code::bad_start_position);
        check_refusal(session.error());
        return 0;
    }
    Session& s = *session;
    std::vector<Event> accepted;
    for (std::size_t i = first_event; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        Event e;
        if (line.starts_with("{")) {
            try {
                e = face::event_from_json(std::string(line));
            } catch (const face::InputError& err) {
                FUZZ_CHECK(!err.message().empty());
                continue;
            }
            check_event_json(e);
        } else {
            auto d = decode_event(line);
            if (!d) {
                check_refusal(d.error());
                continue;
            }
            e = *d;
        }
        check_event_codec(e);
        const std::string before = s.summary();
        const std::size_t count = s.events_applied();
        const std::int64_t last = s.last_event_ms();
        const bool was_over = s.ended();
        if (auto refused = s.apply(e)) {
            check_refusal(*refused);
            FUZZ_CHECK(s.summary() == before);
            FUZZ_CHECK(s.events_applied() == count);
            continue;
        }
        FUZZ_CHECK(!was_over);  // nothing is accepted after the end
        FUZZ_CHECK(s.events_applied() == count + 1);
        if (s.end()) {
            const std::string& r = s.end()->result;
            FUZZ_CHECK(r == "1-0" || r == "0-1" || r == "1/2-1/2");
        }
        FUZZ_CHECK(s.last_event_ms() >= last);
        accepted.push_back(e);
        (void)face::dump(face::state_json(s, 1));
    }
    check_export(s);
    (void)scoresheet_text(s);
    auto replayed = Session::create(config);
    FUZZ_CHECK(replayed.has_value());
    for (const Event& e : accepted) FUZZ_CHECK(!replayed->apply(e));
    FUZZ_CHECK(replayed->summary() == s.summary());
    FUZZ_CHECK(replayed->digest() == s.digest());
    return 0;
}
