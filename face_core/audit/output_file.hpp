// output_file.hpp — a report file written whole or not at all (`audit --output`, `--pgn-out`).
#pragma once

#include <fstream>
#include <string>
#include <vector>

namespace arbiter::face {

// The report file of --output. Refused when it is one of the inputs (the same device and inode:
// through a symlink or a hard link too), so that no input is truncated before it is read. A
// regular file (or a new one) is written to a temporary file beside it and renamed into place
// once the audit is complete, so an interrupted run never leaves a half-written report under the
// final name; a device or a pipe (/dev/stdout, /dev/full) is written directly.
class OutputFile {
public:
    /// Throws InputError when `path` is one of `inputs` or cannot be written.
    OutputFile(const std::string& path, const std::vector<std::string>& inputs);
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;
    ~OutputFile();

    std::ostream& stream() { return file_; }
    /// The report is complete: flushed, checked, renamed into place (InputError, status 1, when
    /// it cannot be).
    void commit();

private:
    std::string path_, target_, temp_;
    std::ofstream file_;
};

}  // namespace arbiter::face
