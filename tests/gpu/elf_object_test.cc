#include "gpu/elf_object.h"

#include <elf.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

// A real shared object from the host compiler, exporting kblaster_entry and kblaster_reference.
std::string entry_object() {
  std::string image = testing::read_text(KBLASTER_TEST_ENTRY_OBJECT);
  if (image.empty()) ADD_FAILURE() << "missing fixture " << KBLASTER_TEST_ENTRY_OBJECT;
  return image;
}

Elf64_Ehdr& header_of(std::string& image) { return *reinterpret_cast<Elf64_Ehdr*>(image.data()); }

Elf64_Shdr& section(std::string& image, unsigned type) {
  const Elf64_Ehdr& h = header_of(image);
  auto* sections = reinterpret_cast<Elf64_Shdr*>(image.data() + h.e_shoff);
  for (unsigned i = 0; i < h.e_shnum; ++i)
    if (sections[i].sh_type == type) return sections[i];
  throw std::runtime_error("no such section");
}

ObjectDefect defect_of(const std::string& image, std::string_view symbol = "kblaster_entry") {
  return check_shared_object_image(image, symbol).defect;
}

TEST(ElfObject, AHostCompiledSharedObjectExportsItsFunctions) {
  const std::string image = entry_object();
  EXPECT_TRUE(check_shared_object_image(image, "kblaster_entry").ok());
  EXPECT_TRUE(check_shared_object_image(image, "kblaster_reference").ok());
  EXPECT_TRUE(check_shared_object(KBLASTER_TEST_ENTRY_OBJECT, "kblaster_entry").ok());
  const ObjectCheck absent = check_shared_object_image(image, "kblaster_entr");
  EXPECT_EQ(absent.defect, ObjectDefect::symbol_missing);
  EXPECT_EQ(absent.detail, "it does not export the function `kblaster_entr`");
}

TEST(ElfObject, AnObjectWithoutTheSymbolOrHidingItIsRefused) {
  const ObjectCheck c = check_shared_object(KBLASTER_TEST_NO_ENTRY_OBJECT, "kblaster_entry");
  EXPECT_EQ(c.defect, ObjectDefect::symbol_missing);
  EXPECT_TRUE(check_shared_object(KBLASTER_TEST_NO_ENTRY_OBJECT, "some_other_function").ok());
}

TEST(ElfObject, NothingEmptyOrRandomBytesAreNotObjects) {
  testing::TempDir dir;
  EXPECT_EQ(check_shared_object(dir.path() / "none.so", "kblaster_entry").defect,
            ObjectDefect::missing);
  EXPECT_EQ(check_shared_object(dir.path(), "kblaster_entry").defect, ObjectDefect::not_elf);
  EXPECT_EQ(check_shared_object(dir.write("empty.so", ""), "kblaster_entry").defect,
            ObjectDefect::empty);
  EXPECT_EQ(check_shared_object(dir.write("text.so", "object"), "kblaster_entry").defect,
            ObjectDefect::not_elf);
  std::mt19937 random(16);
  std::string noise(4096, '\0');
  for (char& c : noise) c = static_cast<char>(random());
  EXPECT_EQ(defect_of(noise), ObjectDefect::not_elf);
  noise.replace(0, SELFMAG, ELFMAG);  // the magic, then garbage
  EXPECT_NE(defect_of(noise), ObjectDefect::none);
  EXPECT_EQ(defect_of(std::string(ELFMAG) + "\x02\x01"), ObjectDefect::malformed);
}

TEST(ElfObject, AnotherClassTypeOrMachineIsTheWrongFormat) {
  std::string image = entry_object();
  std::string elf32 = image;
  header_of(elf32).e_ident[EI_CLASS] = ELFCLASS32;
  EXPECT_EQ(defect_of(elf32), ObjectDefect::wrong_format);
  std::string big_endian = image;
  header_of(big_endian).e_ident[EI_DATA] = ELFDATA2MSB;
  EXPECT_EQ(defect_of(big_endian), ObjectDefect::wrong_format);
  std::string relocatable = image;
  header_of(relocatable).e_type = ET_REL;
  const ObjectCheck rel = check_shared_object_image(relocatable, "kblaster_entry");
  EXPECT_EQ(rel.defect, ObjectDefect::wrong_format);
  EXPECT_THAT(rel.detail, HasSubstr("not a shared object"));
  std::string other_machine = image;
  header_of(other_machine).e_machine = EM_RISCV;
  EXPECT_EQ(defect_of(other_machine), ObjectDefect::wrong_format);
}

// Every offset and size a header gives is checked before it is read.
TEST(ElfObject, OffsetsAndSizesOutsideTheFileAreMalformedNotRead) {
  const std::string image = entry_object();
  auto mutated = [&image](auto&& change) {
    std::string copy = image;
    change(copy);
    return defect_of(copy);
  };
  EXPECT_EQ(mutated([](std::string& i) { header_of(i).e_shoff = ~0ull - 8; }),
            ObjectDefect::malformed);
  EXPECT_EQ(mutated([](std::string& i) { header_of(i).e_shnum = 0xffff; }),
            ObjectDefect::malformed);
  EXPECT_EQ(mutated([](std::string& i) { header_of(i).e_shentsize = 12; }),
            ObjectDefect::malformed);
  EXPECT_EQ(mutated([](std::string& i) { section(i, SHT_DYNSYM).sh_offset = ~0ull - 100; }),
            ObjectDefect::malformed);
  EXPECT_EQ(mutated([](std::string& i) { section(i, SHT_DYNSYM).sh_size = 1ull << 62; }),
            ObjectDefect::malformed);
  EXPECT_EQ(mutated([](std::string& i) { section(i, SHT_DYNSYM).sh_size += 1; }),
            ObjectDefect::malformed);  // not a whole number of symbols
  EXPECT_EQ(mutated([](std::string& i) { section(i, SHT_DYNSYM).sh_link = 0xffffff; }),
            ObjectDefect::malformed);
  EXPECT_EQ(mutated([](std::string& i) {
              Elf64_Shdr& dynsym = section(i, SHT_DYNSYM);
              auto* sections = reinterpret_cast<Elf64_Shdr*>(i.data() + header_of(i).e_shoff);
              sections[dynsym.sh_link].sh_size = i.size();  // runs past the end of the file
            }),
            ObjectDefect::malformed);
  // A name offset past the string table names nothing, so the symbol is not found.
  EXPECT_EQ(mutated([](std::string& i) {
              Elf64_Shdr& dynsym = section(i, SHT_DYNSYM);
              auto* symbols = reinterpret_cast<Elf64_Sym*>(i.data() + dynsym.sh_offset);
              for (std::size_t k = 0; k < dynsym.sh_size / sizeof(Elf64_Sym); ++k)
                symbols[k].st_name = 0xfffffff0;
            }),
            ObjectDefect::symbol_missing);
  // Truncated anywhere: never read past the end.
  for (std::size_t size : {std::size_t{20}, sizeof(Elf64_Ehdr), image.size() / 2, image.size() - 1})
    EXPECT_NE(defect_of(image.substr(0, size)), ObjectDefect::none) << size;
}

TEST(ElfObject, DefectNamesAreStable) {
  EXPECT_STREQ(object_defect_name(ObjectDefect::none), "none");
  EXPECT_STREQ(object_defect_name(ObjectDefect::empty), "empty");
  EXPECT_STREQ(object_defect_name(ObjectDefect::not_elf), "not_elf");
  EXPECT_STREQ(object_defect_name(ObjectDefect::symbol_missing), "symbol_missing");
}

}  // namespace
}  // namespace kblaster
