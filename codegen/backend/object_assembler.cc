// Joining the partitions' assembly and assembling it in process (see
// object_assembler.h).
#include "codegen/backend/object_assembler.h"

#include <memory>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

namespace aotc::codegen {
namespace {

bool IsSymbolChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$' || c == '@';
}

// The symbol a `.globl` or `.hidden` line names, unquoted; empty for other
// lines.
absl::string_view LinkageDirectiveSymbol(absl::string_view line) {
  for (absl::string_view directive : {"\t.globl\t", "\t.hidden\t"}) {
    if (!absl::StartsWith(line, directive)) continue;
    absl::string_view name = line.substr(directive.size());
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
      name = name.substr(1, name.size() - 2);
    }
    return name;
  }
  return {};
}

// Appends `line` with every private label (".L" starting a symbol, outside
// quoted strings) prefixed by `prefix`.
void AppendRenamed(absl::string_view line, absl::string_view prefix,
                   std::string* out) {
  bool in_string = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_string) {
      if (c == '\\' && i + 1 < line.size()) {
        out->push_back(c);
        out->push_back(line[++i]);
        continue;
      }
      in_string = c != '"';
    } else if (c == '"') {
      in_string = true;
    } else if (c == '.' && i + 1 < line.size() && line[i + 1] == 'L' &&
               (i == 0 || !IsSymbolChar(line[i - 1]))) {
      out->append(".L");
      out->append(prefix.data(), prefix.size());
      ++i;
      continue;
    }
    out->push_back(c);
  }
}

}  // namespace

bool AssemblyRoundTripTested(const llvm::Triple& triple) {
  return triple.isOSBinFormatELF() &&
         (triple.getArch() == llvm::Triple::x86_64 ||
          triple.getArch() == llvm::Triple::aarch64);
}

std::string JoinAssembly(const std::vector<std::string>& parts,
                         const std::vector<std::string>& externalized) {
  const absl::flat_hash_set<absl::string_view> local(externalized.begin(),
                                                     externalized.end());
  std::string out;
  size_t total = 0;
  for (const std::string& part : parts) total += part.size();
  out.reserve(total + total / 16);
  for (size_t p = 0; p < parts.size(); ++p) {
    // LLVM's private labels never start with a digit after ".L", so the
    // renamed ones cannot clash with partition 0's, which stay as they are.
    const std::string prefix = absl::StrCat(p, ".");
    for (absl::string_view line : absl::StrSplit(parts[p], '\n')) {
      if (p > 0 && absl::StartsWith(line, "\t.file\t")) continue;
      const absl::string_view symbol = LinkageDirectiveSymbol(line);
      if (!symbol.empty() && local.contains(symbol)) continue;
      if (p == 0) {
        out.append(line.data(), line.size());
      } else {
        AppendRenamed(line, prefix, &out);
      }
      out.push_back('\n');
    }
  }
  return out;
}

absl::StatusOr<std::string> AssembleObject(const std::string& assembly,
                                           const llvm::TargetMachine& tm) {
  const llvm::Target& target = tm.getTarget();
  const llvm::Triple& triple = tm.getTargetTriple();
  const llvm::MCTargetOptions& options = tm.Options.MCOptions;
  const llvm::MCSubtargetInfo& sti = *tm.getMCSubtargetInfo();
  std::vector<std::string> errors;
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(assembly, "model.s",
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  auto record = [](const llvm::SMDiagnostic& d, void* context) {
    std::string text;
    llvm::raw_string_ostream os(text);
    d.print(nullptr, os, /*ShowColors=*/false);
    static_cast<std::vector<std::string>*>(context)->push_back(os.str());
  };
  sources.setDiagHandler(record, &errors);
  llvm::MCContext context(triple, tm.getMCAsmInfo(), tm.getMCRegisterInfo(),
                          &sti, &sources, &options);
  context.setDiagnosticHandler(
      [&](const llvm::SMDiagnostic& d, bool, const llvm::SourceMgr&,
          std::vector<const llvm::MDNode*>&) { record(d, &errors); });
  std::unique_ptr<llvm::MCObjectFileInfo> file_info(
      target.createMCObjectFileInfo(
          context, tm.isPositionIndependent(),
          tm.getCodeModel() == llvm::CodeModel::Large));
  context.setObjectFileInfo(file_info.get());
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  std::unique_ptr<llvm::MCAsmBackend> backend(
      target.createMCAsmBackend(sti, *tm.getMCRegisterInfo(), options));
  std::unique_ptr<llvm::MCCodeEmitter> emitter(
      target.createMCCodeEmitter(*tm.getMCInstrInfo(), context));
  if (backend == nullptr || emitter == nullptr) {
    return absl::InternalError(
        absl::StrCat("no assembler for ", triple.str()));
  }
  std::unique_ptr<llvm::MCObjectWriter> writer =
      backend->createObjectWriter(os);
  std::unique_ptr<llvm::MCStreamer> streamer(target.createMCObjectStreamer(
      triple, context, std::move(backend), std::move(writer),
      std::move(emitter), sti));
  std::unique_ptr<llvm::MCAsmParser> parser(llvm::createMCAsmParser(
      sources, context, *streamer, *tm.getMCAsmInfo()));
  std::unique_ptr<llvm::MCTargetAsmParser> target_parser(
      target.createMCAsmParser(sti, *parser, *tm.getMCInstrInfo(), options));
  if (target_parser == nullptr) {
    return absl::InternalError(
        absl::StrCat("no assembly parser for ", triple.str()));
  }
  parser->setTargetParser(*target_parser);
  const bool failed = parser->Run(/*NoInitialTextSection=*/false);
  if (failed || !errors.empty() || context.hadError()) {
    if (errors.size() > 3) errors.resize(3);
    return absl::InternalError(
        absl::StrCat("internal error: assembling the partitions failed: ",
                     absl::StrJoin(errors, "\n")));
  }
  return std::string(buffer.begin(), buffer.end());
}

}  // namespace aotc::codegen
