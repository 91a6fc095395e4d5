#include "profile/ncu_csv.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "profile/kernel_profile.h"

namespace kblaster {
namespace {

const std::string kFixtureDir = KBLASTER_SOURCE_DIR "/tests/profile/fixtures/";

// The text of tests/profile/fixtures/<name> (real ncu captures); "" if absent.
std::string read_fixture(const std::string& name) {
  std::ifstream in(kFixtureDir + name, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const char* kDetailsHeader =
    R"c("ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value","Rule Name","Rule Type","Rule Description","Estimated Speedup Type","Estimated Speedup")c";

// `ncu --csv --metrics …` prints no rule columns.
const char* kMetricsHeader =
    R"c("ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value")c";

// Modelled on `ncu --csv --set full` 2025.3 on an H200: banners first, metric
// rows stop after "Metric Value", rule rows carry a multi-line description.
std::string details_page() {
  const std::string k0 =
      R"c("0","552","s","127.0.0.1","saxpy(float, const float *, float *, int)","1","7","(256, 1, 1)","(16384, 1, 1)","0","9.0",)c";
  const std::string k1 =
      R"c("1","552","s","127.0.0.1","scale_kernel","1","7","(128, 1, 1)","(64, 1, 1)","0","9.0",)c";
  return std::string("==PROF== Connected to process 552 (/tmp/s)\n") +
         "==PROF== Profiling \"saxpy\" - 0: 0%....50%....100% - 38 passes\n" +
         "result: ok, 4194304 elements\n" + "==PROF== Disconnected from process 552\n" +
         kDetailsHeader + "\n" +  // line 5
         k0 + R"c("GPU Speed Of Light Throughput","Duration","ns","15,968",)c" + "\n" + k0 +
         R"c("GPU Speed Of Light Throughput","DRAM Throughput","%","44.92",)c" + "\n" + k0 +
         R"c("SpeedOfLight","","","","SOLBottleneck","OPT","Low throughput.)c" + "\n" +
         R"c(See ""Scheduler Statistics"", then warps.","","")c" + "\n" +  // line 9
         k0 + R"c("Launch Statistics","Cluster Scheduling Policy","","PolicySpread",)c" + "\n" +
         k0 + R"c("Launch Statistics","Grid Size","","16,384",)c" + "\n" + k0 +
         R"c("Occupancy","Cluster Occupancy","%","n/a",)c" + "\n" + k1 +
         R"c("GPU Speed Of Light Throughput","Duration","us","2.50",)c" + "\n";
}

TEST(NcuCsv, DetailsPageSkipsBannersAndRules) {
  Result<std::vector<NcuKernel>> r = parse_ncu_csv(details_page(), "full.csv");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->size(), 2u);
  const NcuKernel& k = r->at(0);
  EXPECT_EQ(k.id, "0");
  EXPECT_EQ(k.name, "saxpy(float, const float *, float *, int)");  // quoted commas
  EXPECT_EQ(k.block_size, "(256, 1, 1)");
  EXPECT_EQ(k.grid_size, "(16384, 1, 1)");
  EXPECT_EQ(k.metrics.size(), 5u);  // the rule row is not a metric
  const NcuValue& d = k.metrics.at("GPU Speed Of Light Throughput: Duration");
  EXPECT_EQ(d.number, 15968.0);
  EXPECT_EQ(d.unit, "ns");
  EXPECT_EQ(d.text, "15,968");
  EXPECT_EQ(k.metrics.at("GPU Speed Of Light Throughput: DRAM Throughput").number, 44.92);
  EXPECT_EQ(k.metrics.at("Launch Statistics: Grid Size").number, 16384.0);
  const NcuValue& policy = k.metrics.at("Launch Statistics: Cluster Scheduling Policy");
  EXPECT_FALSE(policy.number);
  EXPECT_EQ(policy.text, "PolicySpread");
  EXPECT_FALSE(k.metrics.at("Occupancy: Cluster Occupancy").number);  // n/a
  EXPECT_EQ(r->at(1).name, "scale_kernel");
  EXPECT_EQ(r->at(1).metrics.at("GPU Speed Of Light Throughput: Duration").unit, "us");
}

TEST(NcuCsv, CommandLineMetricsAreKeyedByRawName) {
  std::string csv =
      std::string(kMetricsHeader) + "\n" +
      R"c("0","947","s","127.0.0.1","k","1","7","(256, 1, 1)","(8, 1, 1)","0","9.0","Command line profiler metrics","dram__bytes_read.sum","byte","33,558,272")c" +
      "\n";
  Result<std::vector<NcuKernel>> r = parse_ncu_csv(csv, "m.csv");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ(r->at(0).metrics.at("dram__bytes_read.sum").number, 33558272.0);
}

TEST(NcuCsv, NumbersKeepOnlyRealThousandsSeparators) {
  auto value_of = [](const std::string& cell) {
    std::string csv = R"c("ID","Kernel Name","Metric Name","Metric Unit","Metric Value")c"
                      "\n\"0\",\"k\",\"m__x.sum\",\"\",\"" +
                      cell + "\"\n";
    return parse_ncu_csv(csv, "v.csv")->at(0).metrics.at("m__x.sum").number;
  };
  EXPECT_EQ(value_of("231,840"), 231840.0);
  EXPECT_EQ(value_of("1,234,567.5"), 1234567.5);
  EXPECT_EQ(value_of("91.23"), 91.23);
  EXPECT_EQ(value_of("0"), 0.0);
  EXPECT_FALSE(value_of("n/a"));
  EXPECT_FALSE(value_of("1,2"));
  EXPECT_FALSE(value_of("(256, 1, 1)"));
  EXPECT_FALSE(value_of(""));
}

// `--page raw`: a column per metric, a units row, identity columns by name.
TEST(NcuCsv, RawPageReadsUnitsRowAndFindsColumnsByName) {
  std::string csv =
      "==PROF== Disconnected from process 672\n"
      R"c("ID","Process ID","Process Name","Host Name","Kernel Name","Kernel Time","Context","Stream","Block Size","Grid Size","Device","CC","dram__bytes_read.sum","gpu__time_duration.sum","launch__func_cache_config")c"
      "\n"
      R"c("","","","","","","","","","","","","Mbyte","usecond","")c"
      "\n"
      R"c("0","672","s","h","saxpy(float, const float *, float *, int)","2025-Nov-30 12:28:01","1","7","(256, 1, 1)","(16384, 1, 1)","0","9.0","33.56","15.71","CachePreferNone")c"
      "\n"
      R"c("1","672","s","h","saxpy(float, const float *, float *, int)","2025-Nov-30 12:28:01","1","7","(256, 1, 1)","(16384, 1, 1)","0","9.0","33.56","15.46","CachePreferNone")c"
      "\r\n";
  Result<std::vector<NcuKernel>> r = parse_ncu_csv(csv, "raw.csv");
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->size(), 2u);
  const NcuKernel& k = r->at(1);
  EXPECT_EQ(k.id, "1");
  EXPECT_EQ(k.grid_size, "(16384, 1, 1)");
  EXPECT_EQ(k.metrics.size(), 3u);  // "Kernel Time" is not a metric
  EXPECT_EQ(k.metrics.at("gpu__time_duration.sum").number, 15.46);
  EXPECT_EQ(k.metrics.at("gpu__time_duration.sum").unit, "usecond");
  EXPECT_EQ(k.metrics.at("dram__bytes_read.sum").unit, "Mbyte");
  EXPECT_EQ(k.metrics.at("launch__func_cache_config").text, "CachePreferNone");
}

TEST(NcuCsv, NoHeaderNamesTheFile) {
  Result<std::vector<NcuKernel>> r = parse_ncu_csv(
      "==PROF== Connected to process 1\n==ERROR== no kernels were profiled\n", "empty.csv");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::config);
  EXPECT_EQ(r.error().where, "empty.csv:2");
  EXPECT_NE(r.error().message.find("header"), std::string::npos);
}

TEST(NcuCsv, RaggedRowNamesFileAndLine) {
  std::string csv = details_page() + R"c("2","552","s","127.0.0.1","k","1")c" + "\n";
  Result<std::vector<NcuKernel>> r = parse_ncu_csv(csv, "full.csv");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().where, "full.csv:14");  // the multi-line rule cell counts two lines
  EXPECT_NE(r.error().describe().find("6 cells"), std::string::npos) << r.error().describe();
}

TEST(NcuCsv, RawRowMustMatchTheHeader) {
  std::string csv = R"c("ID","Kernel Name","dram__bytes_read.sum")c"
                    "\n"
                    R"c("","","byte")c"
                    "\n"
                    R"c("0","k","12","13")c"
                    "\n";
  Result<std::vector<NcuKernel>> r = parse_ncu_csv(csv, "raw.csv");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().where, "raw.csv:3");
}

TEST(NcuCsv, UnterminatedQuoteIsAnError) {
  std::string csv = std::string(kDetailsHeader) + "\n\"0\",\"k\n";
  Result<std::vector<NcuKernel>> r = parse_ncu_csv(csv, "cut.csv");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().where, "cut.csv:2");
}

// ncu prints no NaN, infinite or negative metric; a row holding one is refused by row
// and metric, on both pages, rather than classified ("SM nan%").
TEST(NcuCsv, NanInfiniteAndNegativeValuesNameTheFileRowAndMetric) {
  for (const std::string bad : {"nan", "-nan", "NaN", "inf", "-5", "-0.5", "-1,024"}) {
    std::string details = details_page();
    details.replace(details.find("\"44.92\""), 7, "\"" + bad + "\"");
    Result<std::vector<NcuKernel>> r = parse_ncu_csv(details, "full.csv");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().kind, ErrorKind::config);
    EXPECT_EQ(r.error().where, "full.csv:7");
    EXPECT_EQ(r.error().message, "metric `DRAM Throughput` has the value `" + bad +
                                     "`; ncu reports no NaN, infinite or negative values, so the "
                                     "CSV is damaged or was edited");
  }
  std::string raw = R"c("ID","Kernel Name","dram__bytes_read.sum")c"
                    "\n"
                    R"c("","","byte")c"
                    "\n"
                    R"c("0","k","-5")c"
                    "\n";
  Result<std::vector<NcuKernel>> r = parse_ncu_csv(raw, "raw.csv");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().describe(),
            "raw.csv:3: metric `dram__bytes_read.sum` has the value `-5`; ncu reports no NaN, "
            "infinite or negative values, so the CSV is damaged or was edited");
  std::string zero = raw;
  zero.replace(zero.find("\"-5\""), 4, "\"0\"");
  EXPECT_TRUE(parse_ncu_csv(zero, "raw.csv").ok());
}

// Real captures dropped into tests/profile/fixtures/ must parse and profile.
TEST(NcuCsv, EveryFixtureParses) {
  std::error_code ec;
  int seen = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kFixtureDir, ec)) {
    if (entry.path().extension() != ".csv") continue;
    ++seen;
    const std::string name = std::filesystem::relative(entry.path(), kFixtureDir).generic_string();
    Result<std::vector<NcuKernel>> r = parse_ncu_csv(read_fixture(name), name);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_FALSE(r->empty()) << name;
    for (const NcuKernel& k : *r) {
      Result<KernelProfile> p = profile_from_ncu(k, name);
      EXPECT_TRUE(p.ok()) << p.error().describe();
    }
  }
  EXPECT_GE(seen, 8) << "the H200 captures in " << kFixtureDir << "h200/ are missing";
}

}  // namespace
}  // namespace kblaster
