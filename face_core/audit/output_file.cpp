// output_file.cpp — a report file written whole or not at all.
#include "audit/output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "errors.hpp"

namespace arbiter::face {

OutputFile::OutputFile(const std::string& path, const std::vector<std::string>& inputs) : path_(path) {
    namespace fs = std::filesystem;
    struct stat out {};
    const bool exists = ::stat(path.c_str(), &out) == 0;
    if (exists) {
        for (const auto& in : inputs) {
            struct stat st {};
            const int got = in == "-" ? ::fstat(STDIN_FILENO, &st) : ::stat(in.c_str(), &st);
            if (got == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino)
                throw InputError("--output '" + path + "' is the input '" + in +
                                 "' (the same file): refusing to overwrite an input");
        }
    }
    if (exists && !S_ISREG(out.st_mode)) {
        file_.open(path, std::ios::binary);
        if (!file_) throw InputError("--output: cannot write '" + path + "': " + std::strerror(errno));
        return;
    }
    // The file the name stands for (a symlink is followed), and a temporary name beside it.
    std::error_code ec;
    target_ = exists ? fs::canonical(path, ec).string() : path;
    if (ec) target_ = path;
    const fs::path t(target_);
    std::string tmpl = (t.parent_path() / ("." + t.filename().string() + ".XXXXXX")).string();
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0) throw InputError("--output: cannot write '" + path + "': " + std::strerror(errno));
    // The permissions the file has, or a new file's (0666 less the umask).
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, exists ? (out.st_mode & 07777) : (0666 & ~mask));
    ::close(fd);
    temp_ = tmpl;
    file_.open(temp_, std::ios::binary | std::ios::trunc);
    if (!file_) throw InputError("--output: cannot write '" + path + "': " + std::strerror(errno));
}

OutputFile::~OutputFile() {
    if (!temp_.empty()) ::unlink(temp_.c_str());
}

void OutputFile::commit() {
    file_.flush();
    if (!file_) throw InputError("cannot write '" + path_ + "': " + std::strerror(errno), 1);
    file_.close();
    if (!file_) throw InputError("cannot write '" + path_ + "': " + std::strerror(errno), 1);
    if (temp_.empty()) return;
    if (::rename(temp_.c_str(), target_.c_str()) != 0)
        throw InputError("cannot write '" + path_ + "': " + std::strerror(errno), 1);
    temp_.clear();
}

}  // namespace arbiter::face
