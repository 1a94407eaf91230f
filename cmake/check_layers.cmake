# check_layers.cmake: cmake -P script: the library's folders are layers and every #include points
# down (docs/design.md "Layers"), and the engine names no op. -DROOT=<source folder>
# Layers, bottom up; a file may include its own layer and those listed:
#   core/    : nothing else
#   loader/  : core/ (and the generated onnx.pb-c.h)
#   ops/     : core/ (and the generated osc_ops_config.h and osc_ops_rows.def)
#   rewrite/ : core/, ops/
#   runtime/ : core/, loader/, ops/, rewrite/
# Every layer may include the public onnx_scatter.h and system headers. The library spells an
# include of another folder from the project root ("core/kernel.h", "ops/scatter/reduce.h"), a
# header of the same folder by its bare name, and never with "..": so the layer of an include is
# the first part of its path, and no resolver is needed.
# Second check: no file of runtime/, nor of rewrite/ but its table rules.def (where a rule names
# its anchor op), contains a string literal equal to an op name of the default domain in the
# registry (the `.op = "Name"` lines of ops/*/rows.def): the engine learns about ops from the
# rows' flags, the rules from their traits and the kernels' parameters, never by name.
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<source folder> -P check_layers.cmake")
endif()
cmake_path(ABSOLUTE_PATH ROOT NORMALIZE OUTPUT_VARIABLE ROOT)
string(REGEX REPLACE "/$" "" ROOT "${ROOT}")

set(layers core loader ops rewrite runtime)
set(below_core "")
set(below_loader core)
set(below_ops core)
set(below_rewrite core ops)
set(below_runtime core loader ops rewrite)
set(generated onnx.pb-c.h osc_ops_config.h osc_ops_rows.def)
set(public onnx_scatter.h)

set(violations "")
foreach(layer IN LISTS layers)
  file(GLOB_RECURSE sources "${ROOT}/${layer}/*.c" "${ROOT}/${layer}/*.h" "${ROOT}/${layer}/*.def")
  foreach(f IN LISTS sources)
    file(RELATIVE_PATH frel "${ROOT}" "${f}")
    get_filename_component(dir "${f}" DIRECTORY)
    file(STRINGS "${f}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS includes)
      if(NOT line MATCHES "#[ \t]*include[ \t]*\"([^\"]+)\"")
        continue()
      endif()
      set(inc "${CMAKE_MATCH_1}")
      set(why "")
      if(inc MATCHES "(^|/)\\.\\.?/")
        set(why "a relative path: name another folder from the project root")
      elseif(inc MATCHES "^([^/]+)/")
        set(to "${CMAKE_MATCH_1}")
        if(NOT EXISTS "${ROOT}/${inc}")
          set(why "no such file")
        elseif(NOT to STREQUAL layer AND NOT to IN_LIST below_${layer})
          set(why "${layer}/ may include only ${layer}/")
          foreach(b IN LISTS below_${layer})
            string(APPEND why ", ${b}/")
          endforeach()
        endif()
      elseif(NOT EXISTS "${dir}/${inc}" AND NOT inc IN_LIST generated AND NOT inc IN_LIST public)
        set(why "a bare name must be a file of the same folder, a generated header or ${public}")
      endif()
      if(why)
        string(STRIP "${line}" line)
        list(APPEND violations "${frel}: ${line}  (${why})")
      endif()
    endforeach()
  endforeach()
endforeach()

# Op names of the registry.
file(GLOB rows "${ROOT}/ops/*/rows.def")
set(ops "")
foreach(r IN LISTS rows)
  file(STRINGS "${r}" oplines REGEX "\\.op[ \t]*=[ \t]*\"[^\"]+\"")
  foreach(l IN LISTS oplines)
    string(REGEX MATCHALL "\\.op[ \t]*=[ \t]*\"[^\"]+\"" found "${l}")
    foreach(m IN LISTS found)
      string(REGEX REPLACE ".*\"([^\"]+)\"" "\\1" name "${m}")
      if(NOT l MATCHES "\\.domain = \"osc\"") # the fused kernels' own names are the rules' to say
        list(APPEND ops "${name}")
      endif()
    endforeach()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES ops)
if(NOT ops)
  list(APPEND violations "ops/*/rows.def: no `.op = \"Name\"` line found (the op-name check has nothing to check)")
endif()
file(GLOB engine "${ROOT}/runtime/*.c" "${ROOT}/runtime/*.h" "${ROOT}/rewrite/*.c"
  "${ROOT}/rewrite/*.h")
foreach(f IN LISTS engine)
  file(RELATIVE_PATH frel "${ROOT}" "${f}")
  # Lines with their numbers: characters that are special in CMake lists replaced first.
  file(READ "${f}" text)
  string(REPLACE "\\" "<BS>" text "${text}")
  string(REPLACE ";" "<SC>" text "${text}")
  string(REPLACE "[" "<LB>" text "${text}")
  string(REPLACE "]" "<RB>" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(n 0)
  foreach(line IN LISTS lines)
    math(EXPR n "${n} + 1")
    if(NOT line MATCHES "\"")
      continue()
    endif()
    string(REGEX MATCHALL "\"[A-Za-z0-9_]+\"" lits "${line}")
    foreach(lit IN LISTS lits)
      string(REPLACE "\"" "" name "${lit}")
      if(name IN_LIST ops)
        list(APPEND violations "${frel}:${n}: the string literal \"${name}\" names an op of the registry")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations)
  list(LENGTH violations count)
  string(REPLACE ";" "\n  " violations "${violations}")
  message(FATAL_ERROR "layer check: ${count} violation(s):\n  ${violations}")
endif()
list(LENGTH ops n_ops)
message(STATUS "layer check: every include of core/, loader/, ops/, rewrite/, runtime/ points to its "
  "own layer or one below; runtime/ and rewrite/ (but rules.def) name none of the registry's "
  "${n_ops} ops")
