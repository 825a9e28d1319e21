// audit_pipeline.hpp — the audit's driver, for every face that audits whole inputs (`arbiter
// audit`, Python's audit()): streams PGN inputs (files, stdin; zstd, gzip, bzip2; or bytes a caller
// supplies: AuditInput), cuts them into batches at game boundaries (pgn::BoundaryFinder), audits
// the batches on N threads (audit_batch.hpp), and hands one record per game to a sink in input
// order (jsonl, csv: AuditSink, StreamSink writes them to a stream) or counts them for a summary
// (formats: audit_output.hpp). Memory stays flat: a bounded number of batches is in flight at any
// time, and a sink that blocks holds the whole pipeline back.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "arbiter/expected.hpp"
#include "arbiter/input.hpp"
#include "audit/audit_batch.hpp"

namespace arbiter::face {

// A write to the output (or to --pgn-out) failed (errno when it did).
struct OutputFailed {
    int error = 0;
    bool pgn = false;
};

/// What run() throws after stop().
struct AuditStopped {};

/// One input of an audit: its name (the records' "file", the messages') and how to open it.
struct AuditInput {
    std::string name;
    /// Opens the input; when empty, open_input(name): a file, or standard input for "-".
    std::function<Expected<std::unique_ptr<ByteSource>, arbiter::InputError>()> open;
};

/// The inputs of an audit in order: the next one, or nullopt after the last. Called on the
/// pipeline's reading thread; an exception it throws ends the audit where it stands (run()
/// rethrows it after the records of the inputs before it).
using AuditInputs = std::function<std::optional<AuditInput>()>;

/// An input of byte chunks a caller supplies (a Python file object): `next` gives the next chunk
/// (empty at the end) or the InputError that ends the input. The bytes are taken as they are (no
/// decompression); an input whose first chunk is not text (a ZIP, an executable, a NUL byte: what
/// open_input refuses by content) is the error not_text.
std::unique_ptr<ByteSource> chunk_input(std::string name,
                                        std::function<Expected<std::string, arbiter::InputError>()> next);
/// Bytes in memory the source keeps, decompressed by content as open_input decompresses a file.
std::unique_ptr<ByteSource> owned_memory_input(std::string data, std::string name);

/// Where the pipeline's output goes, in input order, from one thread at a time (the pipeline's
/// lock held): a sink that blocks holds the pipeline back; an exception it throws stops the audit
/// and run() rethrows it.
class AuditSink {
public:
    virtual ~AuditSink() = default;
    /// A game's text (jsonl or csv, as format_game gives it: without its numbers) and its numbers
    /// over all the inputs and within its input. Not called for a game --select leaves out, nor
    /// for the summary.
    virtual void record(std::uint64_t game, std::uint64_t game_in_file, const std::string& text) = 0;
    /// Games with findings, for --pgn-out.
    virtual void pgn(std::string_view text) = 0;
    /// An input could not be opened (`opened` false) or read to its end: after the records of the
    /// games before the fault (the game it cut carries it in its record).
    virtual void input_failed(const arbiter::InputError& error, bool opened) = 0;
    /// Every input was read and every record given: `games` games were read (selected or not).
    virtual void end(std::uint64_t games) = 0;
};

/// `arbiter audit`'s sink: the records to `out` (CSV: the header before the first row, or at the
/// end when games were read but none has a row), --pgn-out to `pgn`, each input that failed as a
/// line "arbiter: …" to `err`. A failed write throws OutputFailed.
class StreamSink final : public AuditSink {
public:
    StreamSink(AuditFormat format, std::ostream& out, std::ostream* pgn, std::ostream& err)
        : format_(format), out_(out), pgn_(pgn), err_(err) {}
    void record(std::uint64_t game, std::uint64_t game_in_file, const std::string& text) override;
    void pgn(std::string_view text) override;
    void input_failed(const arbiter::InputError& error, bool opened) override;
    void end(std::uint64_t games) override;

private:
    AuditFormat format_;
    std::ostream& out_;
    std::ostream* pgn_;
    std::ostream& err_;
    bool header_written_ = false;
};

class AuditPipeline {
public:
    /// The inputs are `inputs`' (none: the files of cfg.files); the output goes to `sink`, a
    /// progress line to stderr with `progress`.
    AuditPipeline(const AuditConfig& cfg, AuditSink& sink, unsigned threads, bool progress, AuditInputs inputs = {});
    /// The files of cfg.files to `out` and `pgn` (with --pgn-out) through a StreamSink, read errors
    /// to stderr.
    AuditPipeline(const AuditConfig& cfg, std::ostream& out, std::ostream* pgn, unsigned threads, bool progress);
    ~AuditPipeline();
    AuditPipeline(const AuditPipeline&) = delete;
    AuditPipeline& operator=(const AuditPipeline&) = delete;

    /// Returns false when an input could not be opened or read to its end (said to the sink). An
    /// exception on any thread (out of memory, a failed write: OutputFailed, the sink's, the
    /// inputs') stops every thread and is rethrown here.
    bool run();
    /// Stops a run from another thread (not from within the sink, whose calls hold the pipeline's
    /// lock; a sink stops the run by throwing): run() throws AuditStopped soon after (once the
    /// batches being audited are done).
    void stop();
    [[nodiscard]] const AuditCounts& counts() const;
    [[nodiscard]] double seconds() const;
    [[nodiscard]] std::uint64_t bytes() const;
    [[nodiscard]] std::uint64_t games_read() const;
    [[nodiscard]] std::uint64_t pgn_games() const;
    /// After run(): every input was read to its end and not one held a game — the audit's error
    /// (no_games_message, audit_request.hpp).
    [[nodiscard]] bool no_games() const;
    /// The most batches cut and not yet given to the sink at once, so far (any thread may ask, even
    /// while the sink blocks); it never exceeds in_flight_limit(threads). bytes() too may be asked
    /// during a run.
    [[nodiscard]] std::uint64_t peak_in_flight() const;
    [[nodiscard]] static constexpr std::uint64_t in_flight_limit(unsigned threads) { return 3 * threads + 2; }

private:
    class Impl;
    std::unique_ptr<StreamSink> own_sink_;
    std::unique_ptr<Impl> impl_;
};

}  // namespace arbiter::face
