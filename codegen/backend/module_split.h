// Splitting a large LLVM module into partitions that are optimized and
// compiled on separate threads (parallel_compile.h).
//
// A partition is a group of whole function definitions. Functions stay with
// the functions they may be inlined into (the direct callees without
// `noinline`), so the optimization pipeline sees the same inlining
// candidates as on the whole module; aotc's loop functions (outlined ones
// are `noinline`, parallel tasks are only passed by address) spread out. A global
// variable goes with the first function (in module order) that uses it.
// Clusters are dealt out largest first to the smallest partition, which
// depends only on the module: the same module gives the same partitions
// whatever the number of threads.
//
// A local symbol that another partition refers to is made a hidden external
// one in every partition (its name is unchanged and recorded), because a
// module can only reach another module's definitions by name. JoinAssembly
// (assembly_join.h) makes these symbols local again in the one object.
//
// Runs after the module is verified, before the optimization pipeline.
#ifndef AOTC_CODEGEN_BACKEND_MODULE_SPLIT_H_
#define AOTC_CODEGEN_BACKEND_MODULE_SPLIT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "llvm/IR/GlobalValue.h"

namespace llvm {
class Module;
}

namespace aotc::codegen {

// Instructions per partition that make a module worth splitting: a module
// under twice this size stays whole (and is compiled exactly as before).
inline constexpr int64_t kInstructionsPerPartition = 16384;
inline constexpr int kMaxPartitions = 16;

// Instructions of the defined functions of `m`.
int64_t CountInstructions(const llvm::Module& m);

// The number of partitions for `m` by its size (1: do not split). Modules
// with aliases, ifuncs, comdats, appending globals other than
// llvm.compiler.used, or module-level assembly are never split; aotc makes
// none of them. llvm.compiler.used (the vector variants of sin, cos and tan)
// is given to every partition, its members declared where they are not
// defined and made hidden externals like the other crossing locals.
int PartitionCount(const llvm::Module& m);

struct ModulePartitions {
  // One bitcode module per partition, in partition order.
  std::vector<std::string> bitcode;
  // Instructions in each partition (before optimization).
  std::vector<int64_t> instructions;
  // Local symbols made hidden externals so that partitions reach them,
  // with their linkage before (internal or private).
  std::vector<std::string> externalized;
  std::vector<llvm::GlobalValue::LinkageTypes> original_linkage;
};

// Splits `m` into at most `partitions` (>= 2) parts; fewer when it has fewer
// clusters. Changes the linkage of `m`'s cross-partition locals.
ModulePartitions SplitModule(llvm::Module& m, int partitions);

}  // namespace aotc::codegen

#endif  // AOTC_CODEGEN_BACKEND_MODULE_SPLIT_H_
