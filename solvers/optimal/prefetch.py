"""A software prefetch for numba code: ``prefetch(array, i)`` asks the memory system for the
cache line of ``array[i]`` and returns at once.

The search's table reads land anywhere in gigabytes, so nearly every one misses the caches.
A read the processor must wait on before it knows what to read next (a class word, then
the entry it names; a value, then the branch it decides) leaves the memory idle while it
waits. Asking for every child's lines as soon as their addresses are known lets those misses
overlap; the reads that follow find the lines in cache. A prefetch changes no value, only
when memory is fetched, and an address out of range is a hint the processor drops (it
never faults), though the search only asks for addresses it then reads.
"""

from __future__ import annotations

import llvmlite.binding as llvm
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

# LLVM names an overloaded intrinsic after its pointer type: typed pointers until LLVM 15
_NAME = "llvm.prefetch.p0" if llvm.llvm_version_info[0] >= 15 else "llvm.prefetch.p0i8"


@intrinsic
def prefetch(typingctx, array, index):  # type: ignore[no-untyped-def]
    """Prefetch ``array[index]`` (a 1-d array, an integer index) for reading, into every
    cache level."""
    if not isinstance(array, types.Array) or array.ndim != 1:
        return None
    if not isinstance(index, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]  # pragma: no cover
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(
            context, builder, aryty, ary, [args[1]], wraparound=False, boundscheck=False
        )
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, _NAME)
        # read (0), keep in all levels (3), data cache (1)
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen
