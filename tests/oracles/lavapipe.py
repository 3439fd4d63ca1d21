"""Mesa's lavapipe (Vulkan on the CPU) driven through the PyPI `vulkan` bindings: runs a
compute shader's workgroup 0 with its storage and uniform buffers filled from bytes,
and returns the buffers' bytes after it. Used by the script that writes golden data."""

from __future__ import annotations

import os
import sys
from pathlib import Path

LVP_ICD = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"


class DriverError(Exception):
    """The driver cannot run this shader (what and why)."""


TIMEOUT_NS = 300_000_000_000


def submitted(driver: Lavapipe, cmd, fence, reads: dict) -> dict:
    """Submit the recorded command buffer `cmd`, wait for `fence`, free `cmd`, and read back
    each of `reads` ({key: (memory, bytes)}) as bytes."""
    vk, dev = driver.vk, driver.device
    vk.vkQueueSubmit(driver.queue, 1, [vk.VkSubmitInfo(commandBufferCount=1, pCommandBuffers=[cmd])], fence)
    wait(driver, fence)
    vk.vkFreeCommandBuffers(dev, driver.pool, 1, [cmd])
    out = {}
    for key, (memory, size) in reads.items():
        mapped = vk.vkMapMemory(dev, memory, 0, max(size, 16), 0)
        out[key] = bytes(mapped[:size])
        vk.vkUnmapMemory(dev, memory)
    return out


def wait(driver: Lavapipe, fence) -> None:
    """Wait for a submission; a GPU still busy after minutes (a shader that never ends)
    leaves nothing safe to free, so the process exits (a worker, restarted by the
    caller) rather than crash later."""
    vk = driver.vk
    try:
        vk.vkWaitForFences(driver.device, 1, [fence], vk.VK_TRUE, TIMEOUT_NS)
    except vk.VkTimeout:
        print("lavapipe: the submission did not finish; exiting", file=sys.stderr)
        os._exit(3)


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
            cmd = recording(self, "compute", pipeline, playout, dsets, push_constants)
            vk.vkCmdDispatch(cmd, 1, 1, 1)
            vk.vkEndCommandBuffer(cmd)
            fence = vk.vkCreateFence(dev, vk.VkFenceCreateInfo(), None)
            made.append((vk.vkDestroyFence, fence))
            return submitted(self, cmd, fence, {key: (mem, n) for key, (mem, n) in memories.items()})
        except vk.VkError as error:
            raise DriverError(f"Vulkan: {type(error).__name__}") from None
        finally:
            for destroy, handle in reversed(made):
                destroy(dev, handle, None)


FORMATS = {"float": "VK_FORMAT_R32G32B32A32_SFLOAT", "int": "VK_FORMAT_R32G32B32A32_SINT",
           "uint": "VK_FORMAT_R32G32B32A32_UINT"}


def recording(driver: Lavapipe, stage: str, pipeline, playout, dsets: list, push_constants: bytes):
    """A one-time command buffer, begun, with the `stage` ("compute" or "fragment")
    pipeline, its descriptor sets and push constants bound (binding is allowed outside a
    render pass, so a draw begins its pass after this)."""
    vk = driver.vk
    bind_point, stage_bit = {
        "compute": (vk.VK_PIPELINE_BIND_POINT_COMPUTE, vk.VK_SHADER_STAGE_COMPUTE_BIT),
        "fragment": (vk.VK_PIPELINE_BIND_POINT_GRAPHICS, vk.VK_SHADER_STAGE_FRAGMENT_BIT),
    }[stage]
    cmd = vk.vkAllocateCommandBuffers(driver.device, vk.VkCommandBufferAllocateInfo(
        commandPool=driver.pool, level=vk.VK_COMMAND_BUFFER_LEVEL_PRIMARY, commandBufferCount=1))[0]
    vk.vkBeginCommandBuffer(cmd, vk.VkCommandBufferBeginInfo(flags=vk.VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT))
    vk.vkCmdBindPipeline(cmd, bind_point, pipeline)
    if dsets:
        vk.vkCmdBindDescriptorSets(cmd, bind_point, playout, 0, len(dsets), dsets, 0, None)
    if push_constants:
        padded = push_constants + bytes(-len(push_constants) % 4)
        vk.vkCmdPushConstants(cmd, playout, stage_bit, 0, len(padded), vk.ffi.from_buffer(padded))
    return cmd


def draw(driver: Lavapipe, vert: bytes, frag: bytes, entry: str, size: tuple[int, int],
         outputs: dict[int, str], uniforms: dict[tuple[int, int], bytes], push_constants: bytes = b"",
         resources: dict[tuple[int, int], tuple[str, list]] | None = None) -> dict[int, bytes]:
    """Draw a full-screen triangle over a W x H target with one RGBA32 attachment per
    output location (`outputs`: location → "float", "int" or "uint"); each attachment's
    texels (rows from the top) as bytes. `resources` maps (set, binding) to ("combined",
    "sampled" or "sampler", one (TextureData, SamplerData) pair per array element)."""
    from lavapipe_images import make_sampler, upload_texture
    vk = driver.vk
    dev = driver.device
    w, h = size
    made = []

    def keep(destroy, handle):
        made.append((destroy, handle))
        return handle

    try:
        vmod = keep(vk.vkDestroyShaderModule, vk.vkCreateShaderModule(dev, vk.VkShaderModuleCreateInfo(codeSize=len(vert), pCode=vert), None))
        fmod = keep(vk.vkDestroyShaderModule, vk.vkCreateShaderModule(dev, vk.VkShaderModuleCreateInfo(codeSize=len(frag), pCode=frag), None))
        locations = sorted(outputs)
        count = (max(locations) + 1) if locations else 0
        attachments, refs, images, readbacks = [], [], {}, {}
        for loc in range(count):
            fmt = getattr(vk, FORMATS[outputs.get(loc, "float")])
            attachments.append(vk.VkAttachmentDescription(
                format=fmt, samples=vk.VK_SAMPLE_COUNT_1_BIT, loadOp=vk.VK_ATTACHMENT_LOAD_OP_CLEAR,
                storeOp=vk.VK_ATTACHMENT_STORE_OP_STORE, stencilLoadOp=vk.VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                stencilStoreOp=vk.VK_ATTACHMENT_STORE_OP_DONT_CARE, initialLayout=vk.VK_IMAGE_LAYOUT_UNDEFINED,
                finalLayout=vk.VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL))
            refs.append(vk.VkAttachmentReference(attachment=loc, layout=vk.VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL))
        subpass = vk.VkSubpassDescription(pipelineBindPoint=vk.VK_PIPELINE_BIND_POINT_GRAPHICS,
                                          colorAttachmentCount=len(refs), pColorAttachments=refs or None)
        render_pass = keep(vk.vkDestroyRenderPass, vk.vkCreateRenderPass(dev, vk.VkRenderPassCreateInfo(
            attachmentCount=len(attachments), pAttachments=attachments or None, subpassCount=1, pSubpasses=[subpass]), None))
        views = []
        for loc in range(count):
            fmt = getattr(vk, FORMATS[outputs.get(loc, "float")])
            image = keep(vk.vkDestroyImage, vk.vkCreateImage(dev, vk.VkImageCreateInfo(
                imageType=vk.VK_IMAGE_TYPE_2D, format=fmt, extent=vk.VkExtent3D(width=w, height=h, depth=1),
                mipLevels=1, arrayLayers=1, samples=vk.VK_SAMPLE_COUNT_1_BIT, tiling=vk.VK_IMAGE_TILING_OPTIMAL,
                usage=vk.VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | vk.VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE, initialLayout=vk.VK_IMAGE_LAYOUT_UNDEFINED), None))
            req = vk.vkGetImageMemoryRequirements(dev, image)
            mem = keep(vk.vkFreeMemory, vk.vkAllocateMemory(dev, vk.VkMemoryAllocateInfo(
                allocationSize=req.size, memoryTypeIndex=_any_memory(driver, req.memoryTypeBits)), None))
            vk.vkBindImageMemory(dev, image, mem, 0)
            view = keep(vk.vkDestroyImageView, vk.vkCreateImageView(dev, vk.VkImageViewCreateInfo(
                image=image, viewType=vk.VK_IMAGE_VIEW_TYPE_2D, format=fmt,
                subresourceRange=vk.VkImageSubresourceRange(aspectMask=vk.VK_IMAGE_ASPECT_COLOR_BIT, baseMipLevel=0,
                                                            levelCount=1, baseArrayLayer=0, layerCount=1)), None))
            views.append(view)
            images[loc] = image
            buf = keep(vk.vkDestroyBuffer, vk.vkCreateBuffer(dev, vk.VkBufferCreateInfo(
                size=w * h * 16, usage=vk.VK_BUFFER_USAGE_TRANSFER_DST_BIT, sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE), None))
            breq = vk.vkGetBufferMemoryRequirements(dev, buf)
            bmem = keep(vk.vkFreeMemory, vk.vkAllocateMemory(dev, vk.VkMemoryAllocateInfo(
                allocationSize=breq.size, memoryTypeIndex=driver._memory_type(breq.memoryTypeBits)), None))
            vk.vkBindBufferMemory(dev, buf, bmem, 0)
            readbacks[loc] = (buf, bmem)
        framebuffer = keep(vk.vkDestroyFramebuffer, vk.vkCreateFramebuffer(dev, vk.VkFramebufferCreateInfo(
            renderPass=render_pass, attachmentCount=len(views), pAttachments=views or None, width=w, height=h, layers=1), None))
        # Descriptors: uniform buffers, images and samplers.
        resources = resources or {}
        types = {"uniform": vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, "combined": vk.VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                 "sampled": vk.VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, "sampler": vk.VK_DESCRIPTOR_TYPE_SAMPLER}
        slots = {key: ("uniform", 1) for key in uniforms}
        slots.update({key: (kind, len(items)) for key, (kind, items) in resources.items()})
        sets = sorted({s for s, _ in slots})
        layouts = []
        for s in range(max(sets) + 1 if sets else 0):
            bindings = [vk.VkDescriptorSetLayoutBinding(binding=b, descriptorCount=n, stageFlags=vk.VK_SHADER_STAGE_FRAGMENT_BIT,
                                                         descriptorType=types[kind])
                        for (ss, b), (kind, n) in sorted(slots.items()) if ss == s]
            layouts.append(keep(vk.vkDestroyDescriptorSetLayout, vk.vkCreateDescriptorSetLayout(dev, vk.VkDescriptorSetLayoutCreateInfo(
                bindingCount=len(bindings), pBindings=bindings or None), None)))
        ranges = [vk.VkPushConstantRange(stageFlags=vk.VK_SHADER_STAGE_FRAGMENT_BIT, offset=0,
                                         size=(len(push_constants) + 3) // 4 * 4)] if push_constants else []
        playout = keep(vk.vkDestroyPipelineLayout, vk.vkCreatePipelineLayout(dev, vk.VkPipelineLayoutCreateInfo(
            setLayoutCount=len(layouts), pSetLayouts=layouts or None,
            pushConstantRangeCount=len(ranges), pPushConstantRanges=ranges or None), None))
        stages = [vk.VkPipelineShaderStageCreateInfo(stage=vk.VK_SHADER_STAGE_VERTEX_BIT, module=vmod, pName="main"),
                  vk.VkPipelineShaderStageCreateInfo(stage=vk.VK_SHADER_STAGE_FRAGMENT_BIT, module=fmod, pName=entry)]
        blend = [vk.VkPipelineColorBlendAttachmentState(blendEnable=vk.VK_FALSE, colorWriteMask=0xF) for _ in range(count)]
        info = vk.VkGraphicsPipelineCreateInfo(
            stageCount=2, pStages=stages,
            pVertexInputState=vk.VkPipelineVertexInputStateCreateInfo(),
            pInputAssemblyState=vk.VkPipelineInputAssemblyStateCreateInfo(topology=vk.VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST),
            pViewportState=vk.VkPipelineViewportStateCreateInfo(
                viewportCount=1, pViewports=[vk.VkViewport(x=0, y=0, width=w, height=h, minDepth=0, maxDepth=1)],
                scissorCount=1, pScissors=[vk.VkRect2D(offset=vk.VkOffset2D(x=0, y=0), extent=vk.VkExtent2D(width=w, height=h))]),
            pRasterizationState=vk.VkPipelineRasterizationStateCreateInfo(
                polygonMode=vk.VK_POLYGON_MODE_FILL, cullMode=vk.VK_CULL_MODE_NONE,
                frontFace=vk.VK_FRONT_FACE_CLOCKWISE, lineWidth=1.0),
            pMultisampleState=vk.VkPipelineMultisampleStateCreateInfo(rasterizationSamples=vk.VK_SAMPLE_COUNT_1_BIT),
            pColorBlendState=vk.VkPipelineColorBlendStateCreateInfo(attachmentCount=count, pAttachments=blend or None),
            layout=playout, renderPass=render_pass, subpass=0)
        pipeline = keep(vk.vkDestroyPipeline, vk.vkCreateGraphicsPipelines(dev, vk.VK_NULL_HANDLE, 1, [info], None)[0])
        dsets = []
        if layouts:
            counts: dict[str, int] = {}
            for kind, n in slots.values():
                counts[kind] = counts.get(kind, 0) + n
            pool = keep(vk.vkDestroyDescriptorPool, vk.vkCreateDescriptorPool(dev, vk.VkDescriptorPoolCreateInfo(
                maxSets=len(layouts), poolSizeCount=len(counts),
                pPoolSizes=[vk.VkDescriptorPoolSize(type=types[k], descriptorCount=n) for k, n in counts.items()]), None))
            dsets = vk.vkAllocateDescriptorSets(dev, vk.VkDescriptorSetAllocateInfo(
                descriptorPool=pool, descriptorSetCount=len(layouts), pSetLayouts=layouts))
            writes = []
            for (s, b), data in uniforms.items():
                size = max(len(data), 16)
                buf = keep(vk.vkDestroyBuffer, vk.vkCreateBuffer(dev, vk.VkBufferCreateInfo(
                    size=size, usage=vk.VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE), None))
                req = vk.vkGetBufferMemoryRequirements(dev, buf)
                mem = keep(vk.vkFreeMemory, vk.vkAllocateMemory(dev, vk.VkMemoryAllocateInfo(
                    allocationSize=req.size, memoryTypeIndex=driver._memory_type(req.memoryTypeBits)), None))
                vk.vkBindBufferMemory(dev, buf, mem, 0)
                mapped = vk.vkMapMemory(dev, mem, 0, size, 0)
                mapped[:size] = data + bytes(size - len(data))
                vk.vkUnmapMemory(dev, mem)
                writes.append(vk.VkWriteDescriptorSet(dstSet=dsets[s], dstBinding=b, descriptorCount=1,
                                                      descriptorType=vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                                      pBufferInfo=[vk.VkDescriptorBufferInfo(buffer=buf, offset=0, range=size)]))
            for (s, b), (kind, items) in resources.items():
                infos = []
                for tex, smp in items:
                    view = upload_texture(driver, keep, tex) if kind != "sampler" else None
                    sampler = make_sampler(driver, keep, smp) if kind != "sampled" else None
                    infos.append(vk.VkDescriptorImageInfo(
                        sampler=sampler, imageView=view,
                        imageLayout=vk.VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL if view else vk.VK_IMAGE_LAYOUT_UNDEFINED))
                writes.append(vk.VkWriteDescriptorSet(dstSet=dsets[s], dstBinding=b, descriptorCount=len(infos),
                                                      descriptorType=types[kind], pImageInfo=infos))
            if writes:
                vk.vkUpdateDescriptorSets(dev, len(writes), writes, 0, None)
        cmd = recording(driver, "fragment", pipeline, playout, dsets, push_constants)
        clears = [vk.VkClearValue(color=vk.VkClearColorValue(float32=[0.0, 0.0, 0.0, 0.0])) for _ in range(count)]
        vk.vkCmdBeginRenderPass(cmd, vk.VkRenderPassBeginInfo(
            renderPass=render_pass, framebuffer=framebuffer,
            renderArea=vk.VkRect2D(offset=vk.VkOffset2D(x=0, y=0), extent=vk.VkExtent2D(width=w, height=h)),
            clearValueCount=count, pClearValues=clears or None), vk.VK_SUBPASS_CONTENTS_INLINE)
        vk.vkCmdDraw(cmd, 3, 1, 0, 0)
        vk.vkCmdEndRenderPass(cmd)
        for loc, image in images.items():
            region = vk.VkBufferImageCopy(
                bufferOffset=0, bufferRowLength=0, bufferImageHeight=0,
                imageSubresource=vk.VkImageSubresourceLayers(aspectMask=vk.VK_IMAGE_ASPECT_COLOR_BIT, mipLevel=0,
                                                             baseArrayLayer=0, layerCount=1),
                imageOffset=vk.VkOffset3D(x=0, y=0, z=0), imageExtent=vk.VkExtent3D(width=w, height=h, depth=1))
            vk.vkCmdCopyImageToBuffer(cmd, image, vk.VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readbacks[loc][0], 1, [region])
        vk.vkEndCommandBuffer(cmd)
        fence = keep(vk.vkDestroyFence, vk.vkCreateFence(dev, vk.VkFenceCreateInfo(), None))
        return submitted(driver, cmd, fence, {loc: (mem, w * h * 16) for loc, (buf, mem) in readbacks.items()})
    except vk.VkError as error:
        raise DriverError(f"Vulkan: {type(error).__name__}") from None
    finally:
        for destroy, handle in reversed(made):
            destroy(dev, handle, None)


def _any_memory(driver: Lavapipe, bits: int) -> int:
    for i in range(driver.memory_props.memoryTypeCount):
        if bits & (1 << i):
            return i
    raise DriverError("no memory type")
