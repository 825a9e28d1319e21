# Runs the arbiter CLI once and checks its exit status and output, for ctest:
#   cmake -DARBITER=path -DARGS="perft|--fen|garbage|3" -DEXPECT_RC=2
#         [-DSTDERR_MATCH=regex] [-DSTDOUT_LAST=line] -P run_case.cmake
# With EXPECT_RC=2 (bad input) the contract is: nothing on stdout, exactly one line on stderr.
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${ARBITER} ${args}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)

if(NOT rc STREQUAL EXPECT_RC)
  message(FATAL_ERROR "exit status ${rc}, expected ${EXPECT_RC}\nstdout: ${out}\nstderr: ${err}")
endif()

if(EXPECT_RC STREQUAL "2")
  if(NOT out STREQUAL "")
    message(FATAL_ERROR "bad input printed on stdout: ${out}")
  endif()
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines lines)
  if(NOT lines EQUAL 1 OR NOT err MATCHES "\n$")
    message(FATAL_ERROR "expected exactly one line on stderr, got ${lines}: ${err}")
  endif()
endif()

if(DEFINED STDERR_MATCH AND NOT err MATCHES "${STDERR_MATCH}")
  message(FATAL_ERROR "stderr does not match '${STDERR_MATCH}': ${err}")
endif()

if(DEFINED STDOUT_LAST)
  string(STRIP "${out}" stripped)
  string(REGEX REPLACE ".*\n" "" last "${stripped}")
  if(NOT last STREQUAL STDOUT_LAST)
    message(FATAL_ERROR "last line of stdout is '${last}', expected '${STDOUT_LAST}'")
  endif()
endif()
