# test/gen_c/deep_schema.cmake — writes the documents of the deep-nesting
# tests of `desert gen-c` (test/gen_c_deep.cmake), so no huge file is
# committed:
#  * OUT/deep.schema.json: types nested as deep as the generator and the
#    runtime allow. Anonymous nesting is bounded by the generator: a type
#    nested 64 levels below its definition is the deepest it generates, so
#    OA (option), RA (record) and MA (a mix of every composite kind) are 65
#    anonymous levels (OUT/la.schema.json: 65 lists, the root). Values are bounded by the runtime: 256
#    composite levels (desert_codec_limits.max_depth, GC_MAX_DEPTH in
#    generated code), records also by desert_options.max_depth (default 128,
#    raised here); the recursive definitions O (option of O), T (list of T)
#    and R (a record with an optional R) reach them. The root, Long..., has member and type
#    names longer than any fixed buffer the generator ever used.
#  * OUT/deep.cases: one case per line, tab-separated: the type, the reader
#    and writer max_depth (0: default), the expected status (OK or DEPTH),
#    the error offset (-1: none), the bytes in hex (derived by hand from
#    docs/format.md: list count 1 = 02, Some = 01, version-0 record = 00,
#    i32 42 = 0000002a) and the value as canonical JSON.
#  * OUT/over_<kind>.schema.json: the same anonymous nesting one level
#    deeper, which the generator must refuse.
#   cmake -DOUT=<dir> -P deep_schema.cmake
set(NEST 65) # anonymous struct levels the generator accepts (0 .. 64 below the top)
file(MAKE_DIRECTORY ${OUT})

function(repeat out text n)
  set(s "")
  if(n GREATER 0)
    foreach(i RANGE 1 ${n})
      string(APPEND s "${text}")
    endforeach()
  endif()
  set(${out} "${s}" PARENT_SCOPE)
endfunction()

# An anonymous type nested `levels` deep (1: one struct around i32).
function(anon out kind levels)
  set(t "")
  if(kind STREQUAL "L")
    repeat(o "{\"type\":\"list\",\"element\":" ${levels})
    repeat(c "}" ${levels})
    set(t "${o}\"i32\"${c}")
  elseif(kind STREQUAL "O")
    repeat(o "{\"type\":\"option\",\"inner\":" ${levels})
    repeat(c "}" ${levels})
    set(t "${o}\"i32\"${c}")
  elseif(kind STREQUAL "R")
    math(EXPR m "${levels} - 1")
    repeat(o "{\"type\":\"record\",\"fields\":[{\"name\":\"f\",\"type\":" ${m})
    repeat(c "}]}" ${m})
    set(t "${o}{\"type\":\"record\",\"fields\":[{\"name\":\"v\",\"type\":\"i32\"}]}${c}")
  endif()
  set(${out} "${t}" PARENT_SCOPE)
endfunction()

# The mix: every composite kind in turn (an enum case is two generator
# levels: the enum and its case's record). Sets the type, a value, its
# bytes in hex.
set(MIX_KINDS list option record tuple either try map set enum)
function(mix out_type out_value out_hex levels)
  set(open_t "")
  set(close_t "")
  set(open_v "")
  set(close_v "")
  set(hex "")
  set(left ${levels})
  set(k 0)
  list(LENGTH MIX_KINDS nk)
  while(left GREATER 0)
    math(EXPR i "${k} % ${nk}")
    list(GET MIX_KINDS ${i} kind)
    math(EXPR k "${k} + 1")
    if(kind STREQUAL "enum")
      if(left LESS 2)
        continue()
      endif()
      math(EXPR left "${left} - 2")
      string(APPEND open_t "{\"type\":\"enum\",\"constructors\":[{\"name\":\"C\",\"fields\":[{\"name\":\"f\",\"type\":")
      string(PREPEND close_t "}]}]}")
      string(APPEND open_v "{\"$case\":\"C\",\"f\":")
      string(PREPEND close_v "}")
      string(APPEND hex "000000") # enum version, id 0, the case record's version
      continue()
    endif()
    math(EXPR left "${left} - 1")
    if(kind STREQUAL "list" OR kind STREQUAL "set")
      string(APPEND open_t "{\"type\":\"${kind}\",\"element\":")
      string(PREPEND close_t "}")
      string(APPEND open_v "[")
      string(PREPEND close_v "]")
      string(APPEND hex "02")
    elseif(kind STREQUAL "option") # followed by a record: not nullable, no {"some": }
      string(APPEND open_t "{\"type\":\"option\",\"inner\":")
      string(PREPEND close_t "}")
      string(APPEND hex "01")
    elseif(kind STREQUAL "record")
      string(APPEND open_t "{\"type\":\"record\",\"fields\":[{\"name\":\"f\",\"type\":")
      string(PREPEND close_t "}]}")
      string(APPEND open_v "{\"f\":")
      string(PREPEND close_v "}")
      string(APPEND hex "00")
    elseif(kind STREQUAL "tuple")
      string(APPEND open_t "{\"type\":\"tuple\",\"elements\":[\"i32\",")
      string(PREPEND close_t "]}")
      string(APPEND open_v "[1,")
      string(PREPEND close_v "]")
      string(APPEND hex "0000000001")
    elseif(kind STREQUAL "either")
      string(APPEND open_t "{\"type\":\"either\",\"left\":\"i32\",\"right\":")
      string(PREPEND close_t "}")
      string(APPEND open_v "{\"right\":")
      string(PREPEND close_v "}")
      string(APPEND hex "01")
    elseif(kind STREQUAL "try")
      string(APPEND open_t "{\"type\":\"try\",\"failure\":\"i32\",\"success\":")
      string(PREPEND close_t "}")
      string(APPEND open_v "{\"success\":")
      string(PREPEND close_v "}")
      string(APPEND hex "01")
    elseif(kind STREQUAL "map")
      string(APPEND open_t "{\"type\":\"map\",\"key\":\"i32\",\"value\":")
      string(PREPEND close_t "}")
      string(APPEND open_v "[[1,")
      string(PREPEND close_v "]]")
      string(APPEND hex "020000000001") # count 1, the entry's tuple version 00, key 1
    endif()
  endwhile()
  set(${out_type} "${open_t}\"i32\"${close_t}" PARENT_SCOPE)
  set(${out_value} "${open_v}42${close_v}" PARENT_SCOPE)
  set(${out_hex} "${hex}0000002a" PARENT_SCOPE)
endfunction()

anon(LA L ${NEST})
anon(OA O ${NEST})
anon(RA R ${NEST})
mix(MA MA_value MA_hex ${NEST})
repeat(long "n" 700) # longer than the old fixed buffers (300 to 1600 bytes) of any emitter
repeat(longtype "T" 400)
set(LONG "{\"type\":\"record\",\"fields\":[{\"name\":\"${long}\",\"optional\":true,\"type\":{\"type\":\"record\",\"fields\":[{\"name\":\"${long}\",\"type\":\"i32\",\"optional\":true},{\"name\":\"z\",\"type\":{\"type\":\"either\",\"left\":\"i32\",\"right\":{\"type\":\"record\",\"fields\":[{\"name\":\"${long}\",\"type\":\"i32\",\"optional\":true}]}}}]}}]}")
file(WRITE ${OUT}/deep.schema.json "{\"desert_schema\":1,\"definitions\":{
\"OA\":${OA},
\"RA\":${RA},
\"MA\":${MA},
\"O\":{\"type\":\"option\",\"inner\":\"O\"},
\"T\":{\"type\":\"list\",\"element\":\"T\"},
\"R\":{\"type\":\"record\",\"fields\":[{\"name\":\"next\",\"type\":\"R\",\"optional\":true}]},
\"Long${longtype}\":${LONG}
},\"root\":\"Long${longtype}\"}
")
# 65 anonymous lists: generated apart, as their direct code grows with the
# square of the depth (each level's functions inline the levels below).
file(WRITE ${OUT}/la.schema.json "{\"desert_schema\":1,\"root\":${LA}}\n")

# ---- the cases -----------------------------------------------------------------------------
set(cases "")
function(add_case type depth status offset hex json)
  set(cases "${cases}${type}\t${depth}\t${status}\t${offset}\t${hex}\t${json}\n" PARENT_SCOPE)
endfunction()

math(EXPR inner "${NEST} - 1")
repeat(h "01" ${NEST})
repeat(o "{\"some\":" ${inner}) # an option of an option writes Some as {"some": v}
repeat(c "}" ${inner})
add_case(OA 0 OK -1 "${h}0000002a" "${o}42${c}")
repeat(h "00" ${NEST})
repeat(o "{\"f\":" ${inner})
repeat(c "}" ${inner})
add_case(RA 0 OK -1 "${h}0000002a" "${o}{\"v\":42}${c}")
add_case(MA 0 OK -1 "${MA_hex}" "${MA_value}")
add_case(Long${longtype} 0 OK -1 "000100010000000701000100000009"
  "{\"${long}\":{\"${long}\":7,\"z\":{\"right\":{\"${long}\":9}}}}")

# Recursive types: n composite levels, then n + 1, which fails where the
# runtime fails (DESERT_E_DEPTH at the start of the first level too deep).
function(recursive type n depth)
  math(EXPR n1 "${n} + 1")
  foreach(levels ${n} ${n1})
    math(EXPR m "${levels} - 1")
    if(type STREQUAL "O") # m times Some, then None
      repeat(h "01" ${m})
      set(h "${h}00")
      repeat(o "{\"some\":" ${m})
      repeat(c "}" ${m})
      set(json "${o}null${c}")
      set(off ${m})
    elseif(type STREQUAL "T") # m lists of one element, then the empty list
      repeat(h "02" ${m})
      set(h "${h}00")
      repeat(o "[" ${levels})
      repeat(c "]" ${levels})
      set(json "${o}${c}")
      set(off ${m})
    else() # R: m records with next present, then one without
      repeat(h "0001" ${m})
      set(h "${h}0000")
      repeat(o "{\"next\":" ${m})
      repeat(c "}" ${m})
      set(json "${o}{\"next\":null}${c}") # output keeps an optional field: null
      math(EXPR off "2 * ${m}")
    endif()
    if(levels EQUAL n)
      add_case(${type} ${depth} OK -1 "${h}" "${json}")
    else()
      add_case(${type} ${depth} DEPTH ${off} "${h}" "${json}")
    endif()
  endforeach()
  set(cases "${cases}" PARENT_SCOPE)
endfunction()
recursive(O 256 0)    # desert_codec_limits.max_depth / GC_MAX_DEPTH: 256
recursive(T 256 0)
recursive(R 128 0)    # records: desert_options.max_depth, default 128
recursive(R 256 1024) # records: desert_options.max_depth raised, the codec's 256 again
file(WRITE ${OUT}/deep.cases "${cases}")

# ---- one level deeper than the generator allows ----------------------------------------------
math(EXPR over "${NEST} + 1")
foreach(kind L O R)
  anon(t ${kind} ${over})
  file(WRITE ${OUT}/over_${kind}.schema.json "{\"desert_schema\":1,\"root\":${t}}\n")
endforeach()
mix(t v h ${over})
file(WRITE ${OUT}/over_M.schema.json "{\"desert_schema\":1,\"root\":${t}}\n")
