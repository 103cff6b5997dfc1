// SPDX-License-Identifier: Apache-2.0
// The builtin library's names for the calls SPIR-V makes. llvm-spirv
// reads an OpenCL.std or OpenCL C builtin as a call of its Itanium name
// with SPIR's address spaces: `PU3AS1` for a __global pointer, a bare `P`
// for a private one (_Z10atomic_incPU3AS1Vi, _Z6sincosfPf). clang, with
// refcl's -ffake-address-space-map, names the library's overloads with
// OpenCL's: _Z10atomic_incPU8CLglobalVi, _Z6sincosfPU9CLprivatef. The
// functions of a module read from SPIR-V get clang's spelling, so that
// llvm-link finds the library's bodies, and a function one module defines
// and another declares (clCompileProgram, then clLinkProgram; from SPIR-V
// or OpenCL C) keeps one name.
//
// A definition of SPV_KHR_linkonce_odr's LinkOnceODR linkage becomes
// weak_odr: llvm-link drops a linkonce_odr function that nothing in the
// objects linked so far uses, so a later object that declares it would
// find it gone ("undefined symbol" at the link); weak_odr keeps one
// definition of the same meaning, and refcl-internalize makes it internal
// once the program is whole.
//
// A vendor qualifier replaced by another keeps the name's substitutions
// (S_, S0_ ...) as they were. A private pointer gains one, which adds a
// substitution candidate: a later reference to one after it would be one
// off. No builtin has one (pointers come last, or are followed by builtin
// types only); such a name stays undefined and the link says so.
#include "pass.h"
#include "passes.h"

#include <llvm/IR/Module.h>

#include <cctype>

using namespace llvm;

namespace refcl {
namespace {

// SPIR's address space numbers to the names clang gives them.
StringRef openclSpace(char Digit)
{
    switch (Digit) {
    case '0': return "U9CLprivate";
    case '1': return "U8CLglobal";
    case '2': return "U10CLconstant";
    case '3': return "U7CLlocal";
    case '4': return "U9CLgeneric";
    default: return "";
    }
}

// The digits at Pos, as a number; Pos moves past them.
size_t number(StringRef S, size_t &Pos)
{
    size_t N = 0;
    while (Pos < S.size() && isdigit((unsigned char)S[Pos]))
        N = N * 10 + (S[Pos++] - '0');
    return N;
}

// The parameter types of an Itanium name from Pos, rewritten: each
// pointer's address space as clang names it. Source names (a length,
// then that many characters: class types such as 11ocl_image2d_ro) are
// copied whole, so a 'P' inside one is never taken for a pointer.
std::string rewriteParameters(StringRef S, size_t Pos)
{
    std::string Out;
    while (Pos < S.size()) {
        char C = S[Pos];
        if (isdigit((unsigned char)C)) {
            size_t Start = Pos;
            size_t Length = number(S, Pos);
            Pos = std::min(S.size(), Pos + Length);
            Out += S.slice(Start, Pos).str();
        } else if ((C == 'S' || (C == 'D' && Pos + 1 < S.size() && S[Pos + 1] == 'v'))) {
            // S<seq-id>_ and Dv<n>_: the digits are not a length.
            size_t End = S.find('_', Pos);
            End = End == StringRef::npos ? S.size() : End + 1;
            Out += S.slice(Pos, End).str();
            Pos = End;
        } else if (C == 'P') {
            Out += 'P';
            Pos++;
            if (S.substr(Pos).startswith("U3AS") && Pos + 4 < S.size() &&
                !openclSpace(S[Pos + 4]).empty()) {
                Out += openclSpace(S[Pos + 4]).str();
                Pos += 5;
            } else if (!S.substr(Pos).startswith("U")) {
                Out += openclSpace('0').str();
            }
        } else {
            Out += C;
            Pos++;
        }
    }
    return Out;
}

// Name as the library spells it; Name itself if it is not an Itanium
// function name.
std::string libraryName(StringRef Name)
{
    if (!Name.startswith("_Z"))
        return Name.str();
    size_t Pos = 2;
    size_t Start = Pos;
    size_t Length = number(Name, Pos);
    if (Pos == Start || Pos + Length > Name.size())
        return Name.str();
    Pos += Length;
    return Name.substr(0, Pos).str() + rewriteParameters(Name, Pos);
}

} // namespace

PreservedAnalyses SpirvNamesPass::run(Module &M, ModuleAnalysisManager &)
{
    bool Changed = false;
    for (GlobalValue &G : M.global_values())
        if (G.getLinkage() == GlobalValue::LinkOnceODRLinkage) {
            G.setLinkage(GlobalValue::WeakODRLinkage);
            Changed = true;
        }
    for (Function &F : make_early_inc_range(M)) {
        // A kernel's name is the application's, whatever it looks like.
        if (F.isIntrinsic() || F.getCallingConv() == CallingConv::SPIR_KERNEL)
            continue;
        std::string Name = libraryName(F.getName());
        if (Name == F.getName())
            continue;
        Function *Same = M.getFunction(Name);
        if (Same && F.isDeclaration() && Same->getFunctionType() == F.getFunctionType()) {
            F.replaceAllUsesWith(Same);
            F.eraseFromParent();
        } else if (!Same) {
            F.setName(Name);
        } else {
            continue;
        }
        Changed = true;
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace refcl
