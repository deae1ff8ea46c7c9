#include "libanalysis/core/mapped_pages.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace tfa {
namespace {

constexpr size_t kFileBytes = 48 << 20;

// A file of kFileBytes bytes (byte i is i % 251), mapped private and read-only as the loader maps
// models; unmapped and removed at the end.
class MappedFile {
 public:
  MappedFile() {
    char path[] = "/tmp/tfa_mapped_pages_XXXXXX";
    const int fd = mkstemp(path);
    path_ = path;
    std::string bytes(kFileBytes, '\0');
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i % 251);
    EXPECT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    data_ = static_cast<const char*>(mmap(nullptr, kFileBytes, PROT_READ, MAP_PRIVATE, fd, 0));
    close(fd);
  }
  ~MappedFile() {
    munmap(const_cast<char*>(data_), kFileBytes);
    std::remove(path_.c_str());
  }
  std::string_view text() const { return {data_, kFileBytes}; }

  // The mapping's resident bytes, from /proc/self/smaps.
  uint64_t ResidentBytes() const {
    std::ifstream smaps("/proc/self/smaps");
    const auto start = reinterpret_cast<uintptr_t>(data_);
    std::string line;
    bool in_mapping = false;
    while (std::getline(smaps, line)) {
      uintptr_t from = 0;
      uintptr_t to = 0;
      if (std::sscanf(line.c_str(), "%lx-%lx", &from, &to) == 2) {
        in_mapping = from == start;
        continue;
      }
      if (in_mapping && line.rfind("Rss:", 0) == 0) {
        std::istringstream fields(line.substr(4));
        uint64_t kb = 0;
        fields >> kb;
        return kb * 1024;
      }
    }
    ADD_FAILURE() << "mapping not found in /proc/self/smaps";
    return 0;
  }

 private:
  std::string path_;
  const char* data_ = nullptr;
};

uint64_t ReadAll(std::string_view text, bool give_back) {
  uint64_t sum = 0;
  for (PageReleasingIterator it(text, 0, give_back), end(text, text.size(), false); it != end;
       ++it) {
    sum += static_cast<unsigned char>(*it);
  }
  return sum;
}

uint64_t ExpectedSum() {
  uint64_t sum = 0;
  for (size_t i = 0; i < kFileBytes; ++i) sum += i % 251;
  return sum;
}

TEST(PageReleasingIterator, ReadsEveryByteAndKeepsOnlyAWindowResident) {
  const MappedFile file;
  EXPECT_EQ(ReadAll(file.text(), true), ExpectedSum());
  // What is left is the last stretch read: at most a step and what is kept behind (8 + 1 MB).
  EXPECT_LT(file.ResidentBytes(), kFileBytes / 4);
}

TEST(PageReleasingIterator, WithoutGivingBackTheWholeFileStaysResident) {
  const MappedFile file;
  EXPECT_EQ(ReadAll(file.text(), false), ExpectedSum());
  EXPECT_GT(file.ResidentBytes(), kFileBytes / 2);
}

TEST(GiveBackMappedPages, PagesGivenBackReadAgainFromTheFile) {
  const MappedFile file;
  EXPECT_EQ(ReadAll(file.text(), false), ExpectedSum());
  GiveBackMappedPages(file.text());
  EXPECT_EQ(file.ResidentBytes(), 0u);
  EXPECT_EQ(ReadAll(file.text(), true), ExpectedSum());
}

}  // namespace
}  // namespace tfa
