"""The project's tests, one folder per thing defended (a package, so ``tests.fred`` never shadows ``fred``)."""
