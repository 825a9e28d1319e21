// main.cpp — entry point of the `arbiter` command-line tool: registers the subcommands, maps
// errors to exit statuses (0 done, 2 bad usage or input, 1 internal failure) and checks at exit
// that standard output was written (a full disk or a write error is exit 1 with the reason; a
// closed pipe ends the process quietly by SIGPIPE, as for any Unix filter).
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli.hpp"

namespace arbiter::cli {

Position fen_or_throw(const std::string& fen) {
    FenReadOptions options;
    options.tolerant = true;
    auto pos = position_from_fen(fen, options);
    if (!pos) throw InputError(pos.error().describe());
    // Missing counters are common and harmless; a missing castling field silently drops rights.
    std::size_t fields = 0;
    for (std::size_t i = 0; i < fen.size();) {
        i = fen.find_first_not_of(" \t", i);
        if (i == std::string::npos) break;
        ++fields;
        i = fen.find_first_of(" \t", i);
    }
    if (fields < 3)
        std::cerr << "arbiter: warning: the FEN has no castling field; read as '-' (no castling rights) and no en "
                     "passant square\n";
    return *pos;
}

CLI::Validator whole_number(long long lo, long long hi) {
    const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
    return CLI::Validator(
        [lo, hi, range](std::string& text) -> std::string {
            long long v = 0;
            const char* end = text.data() + text.size();
            const auto r = std::from_chars(text.data(), end, v);
            if (text.empty() || r.ptr != end || r.ec == std::errc::invalid_argument)
                return "'" + printable(text) + "' is not a whole number (expected " + range + ")";
            if (r.ec == std::errc::result_out_of_range || v < lo || v > hi)
                return printable(text) + " is out of range: " + range;
            return "";
        },
        range);
}

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    static constexpr char hex[] = "0123456789abcdef";
    auto escape = [&](unsigned char c) {
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 15];
    };
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            if (c < 0x20 || c == 0x7F)
                escape(c);
            else
                out += static_cast<char>(c);
            ++i;
            continue;
        }
        const std::size_t n = utf8_sequence_length(text.substr(i));
        if (n == 0) {
            escape(c);
            ++i;
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

std::size_t utf8_sequence_length(std::string_view s) noexcept {
    if (s.empty()) return 0;
    const auto c = static_cast<unsigned char>(s[0]);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if ((c & 0xE0) == 0xC0) {
        n = 2;
        cp = c & 0x1Fu;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        cp = c & 0x0Fu;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4;
        cp = c & 0x07u;
    } else {
        return 0;
    }
    if (s.size() < n) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        const auto b = static_cast<unsigned char>(s[k]);
        if ((b & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b & 0x3Fu);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

bool is_utf8(std::string_view text) noexcept {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_sequence_length(text.substr(i));
        if (n == 0) return false;
        i += n;
    }
    return true;
}

void require_utf8(std::string_view what, const std::string& text) {
    if (!is_utf8(text)) throw InputError(std::string(what) + ": '" + printable(text) + "' is not valid UTF-8 text");
}

}  // namespace arbiter::cli

namespace {

// Flushes standard output; false (errno set, when known) when a write failed.
bool stdout_written() {
    std::cout.flush();
    const bool flushed = std::fflush(stdout) == 0;
    return flushed && !std::ferror(stdout) && !std::cout.fail();
}

int report(const char* prefix, std::string_view message, int status) {
    std::cout.flush();
    std::cerr << "arbiter: " << prefix << arbiter::cli::printable(message) << '\n';
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace arbiter::cli;
    CLI::App app{"arbiter — the draw rules of chess, exactly"};
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("arbiter ") + std::string(arbiter::version));
    add_perft(app);
    add_moves(app);
    add_status(app);
    add_claim(app);
    add_session(app);
    add_audit(app);
    add_dead(app);
    int status = 0;
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        status = app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        status = app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        status = app.exit(e);
    } catch (const CLI::ParseError& e) {
        return report("", e.what(), 2);
    } catch (const InputError& e) {
        return report("", e.message(), e.status());
    } catch (const std::bad_alloc&) {
        return report("", "out of memory", 1);
    } catch (const std::exception& e) {
        return report("internal error: ", e.what(), 1);
    }
    if (!stdout_written()) {
        const int err = errno;
        if (err == EPIPE) return 141;  // the reader went away (SIGPIPE ignored): quietly, as 128 + SIGPIPE
        std::cerr << "arbiter: cannot write standard output: " << (err ? std::strerror(err) : "write error") << '\n';
        return 1;
    }
    return status;
}
