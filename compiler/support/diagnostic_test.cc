#include "compiler/support/diagnostic.h"

#include <gtest/gtest.h>

namespace aotc {
namespace {

TEST(DiagnosticTest, QuotesLineWithCaretUnderColumn) {
  auto file = std::make_shared<SourceFile>(
      SourceFile{"m.hlo", "HloModule m\n  %a = f32[2] bogus(%x)\n"});
  Location loc{file, 2, 15};
  EXPECT_EQ(FormatError(loc, "unknown opcode 'bogus'"),
            "m.hlo:2:15: error: unknown opcode 'bogus'\n"
            "  %a = f32[2] bogus(%x)\n"
            "              ^");
}

TEST(DiagnosticTest, WithoutTextOnlyPrefix) {
  auto file = std::make_shared<SourceFile>(SourceFile{"m.pb", ""});
  EXPECT_EQ(FormatError(Location{file, 0, 0}, "bad proto"),
            "m.pb: error: bad proto");
  EXPECT_EQ(FormatError(Location{}, "x"), "<unknown>: error: x");
}

TEST(DiagnosticTest, ControlCharactersAreMasked) {
  auto file =
      std::make_shared<SourceFile>(SourceFile{"g", std::string("a\x01\x7f" "b\n", 5)});
  EXPECT_EQ(FormatError(Location{file, 1, 2}, "garbage"),
            "g:1:2: error: garbage\na??b\n ^");
}

}  // namespace
}  // namespace aotc
