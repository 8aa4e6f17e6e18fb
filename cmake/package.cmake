# Installing proofdeck and packaging it for Debian (scripts/package runs `cpack -G DEB`).
# Included from CMakeLists.txt after the proofdeck target. What is installed, under the prefix:
#   bin/proofdeck                         the binary, with the built-in banks inside it
#   share/man/man1/proofdeck.1.gz         help2man's page from --help (PROOFDECK_MAN_PAGE)
#   share/doc/proofdeck/                  schema.json and README.md, for bank authors; and with
#                                         PROOFDECK_PACKAGE the Debian copyright and changelog
include(GNUInstallDirs)

# PROOFDECK_PACKAGE (CMakeLists.txt, as it sets compile flags) is the package build, which always
# has the man page; other builds write it only when asked: help2man runs the binary it documents,
# which in the sanitizer and fuzz trees is an instrumented one.
option(PROOFDECK_MAN_PAGE "Write and install the man page (help2man); on in the package build" OFF)

install(TARGETS proofdeck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES questions/schema.json questions/README.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The man page: --help and --version through help2man, with packaging/proofdeck.h2m for what
# --help does not say (exit status, environment, files). 80 columns and no colour, so the page
# does not depend on the terminal it was built in; gzip -n keeps no time stamp in the file.
if(PROOFDECK_MAN_PAGE OR PROOFDECK_PACKAGE)
  find_program(HELP2MAN_PROGRAM help2man)
  find_program(GZIP_PROGRAM gzip)
  if(NOT HELP2MAN_PROGRAM OR NOT GZIP_PROGRAM)
    message(FATAL_ERROR "the man page needs help2man and gzip: install Debian's help2man "
      "(scripts/setup installs every package proofdeck builds with)")
  endif()
  set(man_page ${CMAKE_CURRENT_BINARY_DIR}/man/proofdeck.1)
  add_custom_command(
    OUTPUT ${man_page}.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/man
    COMMAND ${CMAKE_COMMAND} -E env COLUMNS=80 NO_COLOR=1 --unset=FORCE_COLOR
            ${HELP2MAN_PROGRAM} --no-info --no-discard-stderr
            --include=${CMAKE_CURRENT_SOURCE_DIR}/packaging/proofdeck.h2m
            --output=${man_page} $<TARGET_FILE:proofdeck>
    COMMAND ${GZIP_PROGRAM} -9nf ${man_page}
    DEPENDS proofdeck ${CMAKE_CURRENT_SOURCE_DIR}/packaging/proofdeck.h2m
    COMMENT "Writing the man page (help2man)")
  add_custom_target(proofdeck_man ALL DEPENDS ${man_page}.gz)
  install(FILES ${man_page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

if(NOT PROOFDECK_PACKAGE)
  return()
endif()

# --- the Debian package -----------------------------------------------------------------------
# The version is the project's; the changelog must have an entry for it (checked here, so a
# version bump without one fails at configure time rather than in lintian).
file(STRINGS packaging/changelog changelog_top LIMIT_COUNT 1 REGEX "^proofdeck \\(")
string(REGEX REPLACE "^proofdeck \\(([^)]*)\\).*" "\\1" changelog_version "${changelog_top}")
if(NOT changelog_version STREQUAL PROJECT_VERSION)
  message(FATAL_ERROR "packaging/changelog's latest entry is for '${changelog_version}', the "
    "project is ${PROJECT_VERSION}: add an entry for proofdeck (${PROJECT_VERSION}) at the top")
endif()
# A native package (no Debian revision), so its changelog is changelog.gz (Policy 12.7).
set(changelog ${CMAKE_CURRENT_BINARY_DIR}/packaging/changelog.gz)
add_custom_command(
  OUTPUT ${changelog}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/packaging
  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_CURRENT_SOURCE_DIR}/packaging/changelog
          ${CMAKE_CURRENT_BINARY_DIR}/packaging/changelog
  COMMAND ${GZIP_PROGRAM} -9nf ${CMAKE_CURRENT_BINARY_DIR}/packaging/changelog
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/packaging/changelog
  COMMENT "Compressing the Debian changelog")
add_custom_target(proofdeck_changelog ALL DEPENDS ${changelog})
install(FILES packaging/copyright ${changelog} DESTINATION ${CMAKE_INSTALL_DOCDIR})

# A stripped binary keeps the compilers' version strings (.comment) and .note; Debian's dh_strip
# removes both, and so does this, after the strip CPack asks for (CPACK_STRIP_FILES).
install(CODE "
  if(CMAKE_INSTALL_DO_STRIP)
    execute_process(COMMAND ${CMAKE_OBJCOPY} --remove-section=.comment --remove-section=.note
      \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/proofdeck
      COMMAND_ERROR_IS_FATAL ANY)
  endif()")

# Debian links its binaries with full RELRO (lintian's hardening-no-bindnow otherwise).
target_link_options(proofdeck PRIVATE -Wl,-z,relro -Wl,-z,now)

# The package's tree also builds the test suite (scripts/trees.sh: the tests run the binary that
# ships), which the package does not need: installing, and so cpack, builds nothing by itself, and
# scripts/package builds what is installed (proofdeck, proofdeck_man, proofdeck_changelog) before
# it packs.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME proofdeck)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_PACKAGE_CONTACT "proofdeck developers <proofdeck@example.org>")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # proofdeck_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # dpkg-shlibdeps: libc6, libfmt9, libsqlite3-0, ...
# The synopsis is the project's description; the extended description follows it in the
# control file (CPack indents each line, and writes an empty line as " .").
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "proofdeck quizzes, examines and drills a learner in a terminal on multi-head
attention, positional encoding, layer normalization, residual connections and
Pre-LN vs Post-LN, and on the decoder layer as Llama builds it (grouped-query
attention, the KV cache, RMSNorm, SwiGLU, ALiBi, RoPE scaling, tiled
attention), with spaced repetition (FSRS-6) kept across days. Each
answer key is justified by a live computation in an embedded transformer-layer
engine, and `proofdeck check` fails when a key disagrees with the engine, so a
bank author's CI can prove every key of a bank.

Four question banks are built in; the bank format and its JSON Schema are in
/usr/share/doc/proofdeck/.")
include(CPack)
