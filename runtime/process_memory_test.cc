#include "runtime/process_memory.h"

#include <gtest/gtest.h>

#include <memory>

namespace tfa::runtime {
namespace {

TEST(ProcessMemoryTest, ReadsVmRssAndVmHwmInBytes) {
  const auto memory = ParseProcStatus(
      "Name:\ttflite-analyze\nVmPeak:\t  900000 kB\nVmHWM:\t    5120 kB\nVmRSS:\t    4096 kB\n"
      "RssAnon:\t    1000 kB\n");
  ASSERT_TRUE(memory.ok()) << memory.status().message();
  EXPECT_EQ(memory->current_bytes, 4096u * 1024);
  EXPECT_EQ(memory->peak_bytes, 5120u * 1024);
}

TEST(ProcessMemoryTest, ALineMissingOrNotInKilobytesIsAnError) {
  EXPECT_FALSE(ParseProcStatus("VmRSS:\t4096 kB\n").ok());
  EXPECT_FALSE(ParseProcStatus("VmHWM:\t4096 kB\nVmRSS:\t4096 MB\n").ok());
  EXPECT_FALSE(ParseProcStatus("VmHWM:\t4096 kB\nVmRSSx:\t4096 kB\n").ok());
  EXPECT_FALSE(ParseProcStatus("VmHWM:\t kB\nVmRSS:\t4096 kB\n").ok());
}

TEST(ProcessMemoryTest, ThisProcessPeakGrowsWithMemoryItTouches) {
  const auto before = ReadResidentMemory();
  ASSERT_TRUE(before.ok()) << before.status().message();
  EXPECT_GE(before->peak_bytes, before->current_bytes);
  constexpr size_t kBytes = 64u << 20, kPageBytes = 4096;
  const std::unique_ptr<char[]> block(new char[kBytes]);
  // Through a volatile pointer, so the compiler keeps the writes that make the pages resident.
  volatile char* pages = block.get();
  for (size_t i = 0; i < kBytes; i += kPageBytes) pages[i] = 1;
  const auto after = ReadResidentMemory();
  ASSERT_TRUE(after.ok()) << after.status().message();
  // The pages touched are resident; the rest of the process may have shrunk meanwhile a little.
  EXPECT_GE(after->peak_bytes, before->current_bytes + kBytes / 2);
}

}  // namespace
}  // namespace tfa::runtime
