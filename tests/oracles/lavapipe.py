"""Mesa's lavapipe (Vulkan on the CPU) driven through the PyPI `vulkan` bindings: runs a
compute shader's workgroup 0 with its storage and uniform buffers filled from bytes,
and returns the buffers' bytes after it. Used by the script that writes golden data."""

from __future__ import annotations

import os
from pathlib import Path

LVP_ICD = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"


class DriverError(Exception):
    """The driver cannot run this shader (what and why)."""


class Lavapipe:
    """One instance and device on lavapipe, reused for every dispatch."""

    def __init__(self) -> None:
        if Path(LVP_ICD).exists():
            os.environ.setdefault("VK_ICD_FILENAMES", LVP_ICD)
            os.environ.setdefault("VK_DRIVER_FILES", LVP_ICD)
        import vulkan as vk

        self.vk = vk
        app = vk.VkApplicationInfo(pApplicationName="spvinspect-oracle", apiVersion=vk.VK_MAKE_VERSION(1, 3, 0))
        self.instance = vk.vkCreateInstance(vk.VkInstanceCreateInfo(pApplicationInfo=app), None)
        devices = vk.vkEnumeratePhysicalDevices(self.instance)
        self.physical = None
        for d in devices:
            props = vk.vkGetPhysicalDeviceProperties(d)
            if "llvmpipe" in vk.ffi.string(props.deviceName).decode() if not isinstance(props.deviceName, str) else "llvmpipe" in props.deviceName:
                self.physical = d
        if self.physical is None:
            raise DriverError("no lavapipe device")
        families = vk.vkGetPhysicalDeviceQueueFamilyProperties(self.physical)
        self.family = next(i for i, f in enumerate(families) if f.queueFlags & vk.VK_QUEUE_COMPUTE_BIT)
        queue_info = vk.VkDeviceQueueCreateInfo(queueFamilyIndex=self.family, queueCount=1, pQueuePriorities=[1.0])
        features = vk.vkGetPhysicalDeviceFeatures(self.physical)
        self.device = vk.vkCreateDevice(self.physical, vk.VkDeviceCreateInfo(
            queueCreateInfoCount=1, pQueueCreateInfos=[queue_info], pEnabledFeatures=features), None)
        self.queue = vk.vkGetDeviceQueue(self.device, self.family, 0)
        self.memory_props = vk.vkGetPhysicalDeviceMemoryProperties(self.physical)
        self.pool = vk.vkCreateCommandPool(self.device, vk.VkCommandPoolCreateInfo(queueFamilyIndex=self.family), None)

    def _memory_type(self, bits: int) -> int:
        vk = self.vk
        want = vk.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | vk.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
        for i in range(self.memory_props.memoryTypeCount):
            if bits & (1 << i) and (self.memory_props.memoryTypes[i].propertyFlags & want) == want:
                return i
        raise DriverError("no host-visible memory")

    def dispatch(self, code: bytes, entry: str, buffers: dict[tuple[int, int], tuple[str, bytes]],
                 push_constants: bytes = b"") -> dict[tuple[int, int], bytes]:
        """Run workgroup 0; `buffers` maps (set, binding) to ("storage"|"uniform", bytes)."""
        vk = self.vk
        dev = self.device
        made = []
        try:
            shader = vk.vkCreateShaderModule(dev, vk.VkShaderModuleCreateInfo(codeSize=len(code), pCode=code), None)
            made.append((vk.vkDestroyShaderModule, shader))
            sets = sorted({s for s, _ in buffers})
            layouts = []
            for s in range(max(sets) + 1 if sets else 0):
                bindings = [
                    vk.VkDescriptorSetLayoutBinding(
                        binding=b, descriptorCount=1, stageFlags=vk.VK_SHADER_STAGE_COMPUTE_BIT,
                        descriptorType=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER if kind == "storage" else vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER)
                    for (ss, b), (kind, _) in sorted(buffers.items()) if ss == s
                ]
                lay = vk.vkCreateDescriptorSetLayout(dev, vk.VkDescriptorSetLayoutCreateInfo(
                    bindingCount=len(bindings), pBindings=bindings or None), None)
                made.append((vk.vkDestroyDescriptorSetLayout, lay))
                layouts.append(lay)
            ranges = [vk.VkPushConstantRange(stageFlags=vk.VK_SHADER_STAGE_COMPUTE_BIT, offset=0,
                                             size=(len(push_constants) + 3) // 4 * 4)] if push_constants else []
            playout = vk.vkCreatePipelineLayout(dev, vk.VkPipelineLayoutCreateInfo(
                setLayoutCount=len(layouts), pSetLayouts=layouts or None,
                pushConstantRangeCount=len(ranges), pPushConstantRanges=ranges or None), None)
            made.append((vk.vkDestroyPipelineLayout, playout))
            stage = vk.VkPipelineShaderStageCreateInfo(stage=vk.VK_SHADER_STAGE_COMPUTE_BIT, module=shader, pName=entry)
            pipeline = vk.vkCreateComputePipelines(dev, vk.VK_NULL_HANDLE, 1, [vk.VkComputePipelineCreateInfo(
                stage=stage, layout=playout)], None)[0]
            made.append((vk.vkDestroyPipeline, pipeline))
            nstorage = sum(1 for k, _ in buffers.values() if k == "storage")
            nuniform = len(buffers) - nstorage
            sizes = [vk.VkDescriptorPoolSize(type=t, descriptorCount=max(n, 1)) for t, n in (
                (vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nstorage), (vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, nuniform))]
            pool = vk.vkCreateDescriptorPool(dev, vk.VkDescriptorPoolCreateInfo(
                maxSets=max(len(layouts), 1), poolSizeCount=2, pPoolSizes=sizes), None)
            made.append((vk.vkDestroyDescriptorPool, pool))
            dsets = vk.vkAllocateDescriptorSets(dev, vk.VkDescriptorSetAllocateInfo(
                descriptorPool=pool, descriptorSetCount=len(layouts), pSetLayouts=layouts)) if layouts else []
            memories = {}
            writes = []
            for key, (kind, data) in buffers.items():
                size = max(len(data), 16)
                buf = vk.vkCreateBuffer(dev, vk.VkBufferCreateInfo(
                    size=size, usage=vk.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | vk.VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                    sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE), None)
                made.append((vk.vkDestroyBuffer, buf))
                req = vk.vkGetBufferMemoryRequirements(dev, buf)
                mem = vk.vkAllocateMemory(dev, vk.VkMemoryAllocateInfo(
                    allocationSize=req.size, memoryTypeIndex=self._memory_type(req.memoryTypeBits)), None)
                made.append((vk.vkFreeMemory, mem))
                vk.vkBindBufferMemory(dev, buf, mem, 0)
                mapped = vk.vkMapMemory(dev, mem, 0, size, 0)
                mapped[: len(data)] = data
                if size > len(data):
                    mapped[len(data):size] = bytes(size - len(data))
                vk.vkUnmapMemory(dev, mem)
                memories[key] = (mem, len(data))
                info = vk.VkDescriptorBufferInfo(buffer=buf, offset=0, range=size)
                writes.append(vk.VkWriteDescriptorSet(
                    dstSet=dsets[key[0]], dstBinding=key[1], descriptorCount=1,
                    descriptorType=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER if kind == "storage" else vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                    pBufferInfo=[info]))
            if writes:
                vk.vkUpdateDescriptorSets(dev, len(writes), writes, 0, None)
            cmd = vk.vkAllocateCommandBuffers(dev, vk.VkCommandBufferAllocateInfo(
                commandPool=self.pool, level=vk.VK_COMMAND_BUFFER_LEVEL_PRIMARY, commandBufferCount=1))[0]
            vk.vkBeginCommandBuffer(cmd, vk.VkCommandBufferBeginInfo(flags=vk.VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT))
            vk.vkCmdBindPipeline(cmd, vk.VK_PIPELINE_BIND_POINT_COMPUTE, pipeline)
            if dsets:
                vk.vkCmdBindDescriptorSets(cmd, vk.VK_PIPELINE_BIND_POINT_COMPUTE, playout, 0, len(dsets), dsets, 0, None)
            if push_constants:
                padded = push_constants + bytes(-len(push_constants) % 4)
                vk.vkCmdPushConstants(cmd, playout, vk.VK_SHADER_STAGE_COMPUTE_BIT, 0, len(padded), vk.ffi.from_buffer(padded))
            vk.vkCmdDispatch(cmd, 1, 1, 1)
            vk.vkEndCommandBuffer(cmd)
            fence = vk.vkCreateFence(dev, vk.VkFenceCreateInfo(), None)
            made.append((vk.vkDestroyFence, fence))
            vk.vkQueueSubmit(self.queue, 1, [vk.VkSubmitInfo(commandBufferCount=1, pCommandBuffers=[cmd])], fence)
            vk.vkWaitForFences(dev, 1, [fence], vk.VK_TRUE, 10_000_000_000)
            vk.vkFreeCommandBuffers(dev, self.pool, 1, [cmd])
            out = {}
            for key, (mem, n) in memories.items():
                mapped = vk.vkMapMemory(dev, mem, 0, max(n, 16), 0)
                out[key] = bytes(mapped[:n])
                vk.vkUnmapMemory(dev, mem)
            return out
        except vk.VkError as error:
            raise DriverError(f"Vulkan: {type(error).__name__}") from None
        finally:
            for destroy, handle in reversed(made):
                destroy(dev, handle, None)
