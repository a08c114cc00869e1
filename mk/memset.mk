# memset area (issue 6): the tunables module, its tests, and the check that
# memset_explicit survives optimisation.

# src/tunables.c is not a variant, so add it to the libraries by hand
# ($^ in their recipes picks up prerequisites added here).
MEMSET_LIB_OBJS := $(BUILD)/obj/src/tunables.o
LIB_OBJS += $(MEMSET_LIB_OBJS)
$(BUILD)/libmemlane.a $(BUILD)/libmemlane.so.$(SOVERSION): $(MEMSET_LIB_OBJS)
