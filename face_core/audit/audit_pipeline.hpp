// audit_pipeline.hpp — `arbiter audit`'s driver: streams PGN inputs (files, stdin; zstd, gzip,
// bzip2), cuts them into batches at game boundaries (pgn::BoundaryFinder), audits the batches on N
// threads (audit_batch.hpp), and writes one record per game in input order (jsonl, csv) or counts
// for a summary (formats: audit_output.hpp). Memory stays flat: a bounded number of batches is in
// flight at any time.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>

#include "audit/audit_batch.hpp"

namespace arbiter::face {

// A write to the output (or to --pgn-out) failed (errno when it did).
struct OutputFailed {
    int error = 0;
    bool pgn = false;
};

class AuditPipeline {
public:
    /// Records go to `out`, the games with findings to `pgn` (with --pgn-out), a progress line to
    /// stderr with `progress`.
    AuditPipeline(const AuditConfig& cfg, std::ostream& out, std::ostream* pgn, unsigned threads, bool progress);
    ~AuditPipeline();
    AuditPipeline(const AuditPipeline&) = delete;
    AuditPipeline& operator=(const AuditPipeline&) = delete;

    /// Returns false when an input could not be read to its end (said on stderr). An exception on
    /// any thread (out of memory, a failed write: OutputFailed) stops every thread and is rethrown
    /// here.
    bool run();
    [[nodiscard]] const AuditCounts& counts() const;
    [[nodiscard]] double seconds() const;
    [[nodiscard]] std::uint64_t bytes() const;
    [[nodiscard]] std::uint64_t games_read() const;
    [[nodiscard]] std::uint64_t pgn_games() const;

private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace arbiter::face
