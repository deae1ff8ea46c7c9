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
#include <vector>

namespace tfa {
namespace {

constexpr size_t kFileBytes = 48 << 20;

// The resident bytes of the mapping that starts at `start`, from /proc/self/smaps.
uint64_t ResidentBytesOf(const void* start_address) {
  std::ifstream smaps("/proc/self/smaps");
  const auto start = reinterpret_cast<uintptr_t>(start_address);
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

  // The mapping's resident bytes.
  uint64_t ResidentBytes() const { return ResidentBytesOf(data_); }

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

TEST(GiveBackMappedPages, GivesBackARangeAndNothingBeyondThePagesItTouches) {
  const MappedFile file;
  EXPECT_EQ(ReadAll(file.text(), false), ExpectedSum());
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t run = 8 << 20;
  // From byte 100: the first page is partly outside, and so is the page the run ends in. The
  // kernel may count a page either way at the edges; nothing beyond them goes.
  GiveBackMappedPages(file.text().substr(100, run));
  EXPECT_GE(file.ResidentBytes(), kFileBytes - run - page);
  EXPECT_LE(file.ResidentBytes(), kFileBytes - run + 2 * page);
  EXPECT_EQ(ReadAll(file.text(), false), ExpectedSum());
}

TEST(ReadEveryPage, MakesTheWholeMappingResident) {
  const MappedFile file;
  EXPECT_EQ(file.ResidentBytes(), 0u);
  ReadEveryPage(file.text());
  EXPECT_EQ(file.ResidentBytes(), kFileBytes);
  EXPECT_EQ(ReadAll(file.text(), false), ExpectedSum());
}

// How many pages of [memory, memory + bytes) are resident (mincore: any mapping, merged or not).
size_t ResidentPages(void* memory, size_t bytes) {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident((bytes + page - 1) / page);
  EXPECT_EQ(mincore(memory, bytes, resident.data()), 0);
  size_t count = 0;
  for (unsigned char r : resident) count += r & 1;
  return count;
}

TEST(PrefaultPages, BacksUntouchedMemoryWithZeroedPages) {
  const size_t bytes = 16 << 20;
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(memory, MAP_FAILED);
  EXPECT_EQ(ResidentPages(memory, bytes), 0u);
  PrefaultPages({{memory, bytes / 2}, {static_cast<char*>(memory) + bytes / 2, bytes / 2}});
  EXPECT_EQ(ResidentPages(memory, bytes), bytes / page);
  const auto* contents = static_cast<const unsigned char*>(memory);
  size_t nonzero = 0;
  for (size_t i = 0; i < bytes; ++i) nonzero += contents[i] != 0;
  EXPECT_EQ(nonzero, 0u);
  munmap(memory, bytes);
}

}  // namespace
}  // namespace tfa
