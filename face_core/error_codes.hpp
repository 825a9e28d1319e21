// error_codes.hpp — the one list of the error codes a face gives of its own: its name, the HTTP
// status the service answers it with, the Python exception class that raises it and what it means
// (docs/json.md, "object error", is tested against it). Every InputError carries one of these
// (face::Code), or a code of the library's readers (input, FEN, PGN, session events), which keep
// their own name tables; the journal's codes and the HTTP server's join this list, so that the
// service, the CLI, Python and JavaScript name a busy journal the same (journal_busy).
#pragma once

// X(name, HTTP status, Python class, meaning)
#define ARBITER_FACE_ERROR_CODES(X)                                                                             \
    X(bad_usage, 400, OptionError, "options or fields that do not go together, or a required one missing")      \
    X(bad_input, 400, OptionError, "input that cannot be used, with no more precise code")                      \
    X(bad_value, 400, OptionError,                                                                              \
      "a value outside its set or range (a rule-set option, a depth, a limit, a side, a claim kind)")           \
    X(bad_field, 400, OptionError, "a JSON key that is unknown or of the wrong type")                           \
    X(bad_json, 400, OptionError, "a request body or event that is not a JSON object")                          \
    X(bad_fen, 400, FenError, "a FEN that does not read (offset: the byte in it)")                              \
    X(bad_move, 400, MoveError, "text that is no move (offset: the byte in the moves text)")                    \
    X(illegal_move, 400, MoveError, "a move that is not legal in its position")                                 \
    X(ambiguous_move, 400, MoveError, "a SAN move that more than one piece could make")                         \
    X(game_over, 400, MoveError, "a move played after the game ended")                                          \
    X(no_move, 400, NoMoveError, "a move taken back at the start of the game")                                  \
    X(bad_pgn, 400, OptionError, "a PGN game that does not read up to the requested ply")                       \
    X(no_such_game, 400, OptionError, "a game number past the last game of the PGN")                            \
    X(unknown_rule_set, 400, OptionError, "a rule-set id that is not one of the ids")                           \
    X(not_utf8, 400, OptionError, "text that is not valid UTF-8")                                               \
    X(line_too_long, 400, ReadError, "a line longer than the reader takes")                                     \
    X(bad_square, 400, OptionError, "a square that is not a1 to h8")                                            \
    X(bad_state, 400, OptionError, "a state that the request cannot apply to")                                  \
    X(bad_request, 400, OptionError, "a request the HTTP server could not read (request line, headers)")        \
    X(no_such_session, 404, OptionError, "no session with that id")                                             \
    X(deleted, 400, OptionError, "a JavaScript Game used after delete()")                                       \
    X(wasm_unavailable, 500, OptionError,                                                                       \
      "(JavaScript) the WebAssembly file could not be fetched or did not start (the message says where it was " \
      "looked for)")                                                                                            \
    X(not_found, 404, OptionError, "no such session, board or route")                                           \
    X(method_not_allowed, 405, OptionError, "a method the route does not take")                                 \
    X(too_large, 413, OptionError, "a body over the route's limit")                                             \
    X(uri_too_long, 414, OptionError, "a request line over the server's limit")                                 \
    X(http_error, 400, OptionError, "another error the HTTP server answered itself")                            \
    X(unauthorized, 401, OptionError, "a missing or wrong bearer token")                                        \
    X(forbidden, 403, OptionError,                                                                              \
      "a request beyond the user's role, sections or boards (the message names the role it needs)")             \
    X(too_many_attempts, 429, OptionError,                                                                      \
      "too many wrong tokens from the address in a minute (Retry-After says when to retry)")                    \
    X(https_required, 400, OptionError, "plain HTTP sent to a server that speaks HTTPS only")                   \
    X(broken_journal, 500, ReadError,                                                                           \
      "the journal's hash chain does not match its rows (a record changed outside arbiter)")                    \
    X(journal_busy, 503, ReadError, "another process held the journal's lock past the busy timeout: retry")     \
    X(conflict, 409, OptionError, "another writer appended to the session meanwhile: reload and retry")         \
    X(read_only, 500, ReadError, "a write to a journal opened read-only, or to a file the user may only read")  \
    X(io, 500, ReadError, "the journal could not be read or written (permissions, a full disk, …)")             \
    X(missing_file, 400, ReadError, "no journal at that path (and creating one was not asked for)")             \
    X(not_a_journal, 400, ReadError, "a file that is not an arbiter journal")                                   \
    X(newer_format, 400, ReadError, "a journal written by a newer version of arbiter")                          \
    X(corrupt, 500, ReadError, "a damaged journal, or one whose contents are inconsistent")                     \
    X(refused, 409, OptionError, "an event the session refused (its own code says why)")                        \
    X(replay, 500, ReadError, "a stored event that no longer replays to the state it produced")                 \
    X(bad_path, 400, ReadError, "a path that cannot hold a journal (no such directory, a directory, a loop)")   \
    X(foreign_wal, 500, ReadError, "a -wal file beside the journal that belongs to another database")           \
    X(user_exists, 409, OptionError, "a user of that name is in the journal already (revoked ones included)")   \
    X(no_such_user, 404, OptionError, "no user of that name in the journal")                                    \
    X(bad_user, 400, OptionError, "a user name, role, section or board that cannot be stored")                  \
    X(source_unreadable, 400, ReadError, "(arbiter watch) a source could not be read (named on stderr)")        \
    X(too_many_streams, 503, OptionError, "every stream the server holds is taken")                             \
    X(out_of_memory, 500, OptionError, "the work needed more memory than there is")                             \
    X(internal, 500, OptionError, "a fault of arbiter itself")
